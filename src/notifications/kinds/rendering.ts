// What every kind renders from at send time: the stored notification, its recipient (texts are in
// the recipient's time zone), and the moment and contests of the send (contests as they are now).
import type { DestinationField } from '../../channels/define.ts'
import type { ContestRow } from '../../db/schema.ts'

/** The columns a linked chat or a pasted webhook is kept in, when the user has one. */
export interface Recipient extends Partial<Record<DestinationField, string | null>> {
  name: string
  email: string
  phoneNumber: string | null
  /** The number a WhatsApp code proved; WhatsApp goes out only while it equals phoneNumber. */
  phoneVerifiedNumber: string | null
  timezone: string
}

export interface StoredNotification {
  id: string
  type: string
  title: string
  message: string
  contestId: string | null
  payload: Record<string, unknown> | null
}

export interface ContentContext {
  appUrl: string
  now: number
  /** Contests the notification refers to, by id, as they are now. */
  contests: ReadonlyMap<string, ContestRow>
  /**
   * The recipient's signed link that mutes the notification's contest, for emails about one
   * contest; signed by delivery at send time, since kinds render without keys or I/O.
   */
  muteUrl?: string
  /** The recipient's signed one-click unsubscribe link, in the footer; signed by delivery too. */
  unsubscribeUrl?: string
  /** The recipient's signed snooze link of a reminder ("Remind me 10 minutes before"). */
  snoozeUrl?: string
}

/** A payload field that is a non-empty string, else undefined (payloads are stored JSON). */
export const payloadText = (value: unknown): string | undefined =>
  typeof value === 'string' && value ? value : undefined

/** The kind the payload names, which picks the module that renders it; 'message' when none. */
export function kindOf(n: StoredNotification): string {
  return payloadText(n.payload?.kind) ?? 'message'
}

/** The ids of the contests a notification needs loaded to render. */
export function contestIdsOf(n: StoredNotification): string[] {
  const ids = Array.isArray(n.payload?.contestIds)
    ? (n.payload.contestIds as unknown[]).filter((id): id is string => typeof id === 'string')
    : []
  return n.contestId ? [n.contestId, ...ids] : ids
}

/** The headline when nothing fresher applies: the subject an admin gave, else the stored title. */
export function storedHeadline(n: StoredNotification): string {
  return payloadText(n.payload?.subject) ?? n.title
}
