// The one place a notification reaches SENT. It runs once per notification, right after its first
// channel was delivered; whatever follows a sent notification starts here.
import type { Env } from '../../env.ts'
import { emitWebhookEvent } from '../../webhooks/emit.ts'
import type { ApiNotification } from '../serialize.ts'

export async function notificationSent(
  env: Env,
  notification: ApiNotification,
  now: number,
): Promise<void> {
  // Never throws: the delivery that was just recorded must stand whatever webhooks do.
  await emitWebhookEvent(
    env,
    { type: 'notification.sent', subject: notification.id, data: notification },
    now,
  )
}
