// What a notification is made of when it is created: its type, the stored title and message, the
// payload its kind renders from at send time, and the channels it may use.
import { perChannel, type Channel } from '../channels/registry.ts'
import { NOTIFICATION_TYPES } from '../db/schema.ts'

export { NOTIFICATION_TYPES }
export type NotificationType = (typeof NOTIFICATION_TYPES)[number]

/** What to create for every user of a page; the kind modules (kinds/) write it. */
export interface NotificationSpec {
  contestId: string | null
  type: NotificationType
  /** With (user, contest, type) the unique key: a second insert of the same key is a no-op. */
  dedupeKey: string
  title: string
  message: string
  payload: Record<string, unknown>
  /** Channels this kind of notification may use; each still needs the user's consent and means. */
  channels: Record<Channel, boolean>
  scheduledAt?: number
}

export const ALL_CHANNELS: Record<Channel, boolean> = perChannel(() => true)
export const EMAIL_ONLY: Record<Channel, boolean> = perChannel((_, id) => id === 'email')
