// The one place a notification reaches SENT. It runs once per notification, right after its
// first channel was delivered; whatever follows a sent notification (the webhooks'
// notification.sent event) starts here.
import type { Env } from '../env.ts'
import type { ApiNotification } from './serialize.ts'

export async function notificationSent(
  env: Env,
  notification: ApiNotification,
  now: number,
): Promise<void> {
  // A seam on purpose: nothing beyond the status change happens yet.
  void env
  void notification
  void now
}
