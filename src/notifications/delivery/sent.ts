// The one place notifications reach SENT. It runs once per notification, right after its first
// channel was delivered; whatever follows a sent notification starts here.
import type { Db } from '../../db/client.ts'
import type { Env } from '../../env.ts'
import { emitLoadedWebhookEvents } from '../../webhooks/emit.ts'
import { findNotifications } from '../history.ts'
import { withResultWords } from '../kinds/result-words.ts'

/** `notification.sent` for each; the notifications are read only when an endpoint listens. */
export async function notificationsSent(
  env: Env,
  db: Db,
  notificationIds: readonly string[],
  now: number,
): Promise<void> {
  if (notificationIds.length === 0) return
  // Never throws: the deliveries that were just recorded must stand whatever webhooks do.
  await emitLoadedWebhookEvents(
    env,
    'notification.sent',
    async () =>
      (await findNotifications(db, notificationIds, withResultWords)).map((notification) => ({
        type: 'notification.sent' as const,
        subject: notification.id,
        data: notification,
      })),
    now,
  )
}
