// The one place a notification reaches SENT. It runs once per notification, right after the
// first channel was delivered; events that follow a sent notification (webhooks'
// notification.sent) are started from here.
import type { Env } from '../env.ts'

export interface SentNotification {
  id: string
  userId: string
  contestId: string | null
  type: string
  /** The channel whose delivery made it SENT. */
  channel: string
  sentAt: number
}

export async function notificationSent(env: Env, notification: SentNotification): Promise<void> {
  // Kept as a seam on purpose: nothing beyond the status change happens yet.
  void env
  void notification
}
