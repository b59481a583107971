// What a notification says on each channel, rendered at send time: in the recipient's time zone,
// from the contest as it is now (the stored payload when the contest is gone).
import type { ContestRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import { contestUrl, formatTime, formatUntil, platformName } from './wording.ts'

export interface Recipient {
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
}

export interface ContestView {
  name: string
  platform: string
  type?: string
  startTime?: number
  durationMinutes?: number
  url?: string
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value ? value : undefined

export function kindOf(n: StoredNotification): string {
  return str(n.payload?.kind) ?? 'message'
}

/** The contest a reminder is about, fresh from the catalogue or as the payload recorded it. */
export function contestView(n: StoredNotification, ctx: ContentContext): ContestView | undefined {
  const row = n.contestId ? ctx.contests.get(n.contestId) : undefined
  if (row) {
    return {
      name: row.name,
      platform: platformName(row.platform),
      type: row.type,
      startTime: row.startTime,
      durationMinutes: row.durationMinutes,
      url: contestUrl(row),
    }
  }
  const name = str(n.payload?.contestName)
  if (!name) return undefined
  const start = Date.parse(str(n.payload?.startTime) ?? '')
  return {
    name,
    platform: platformName(str(n.payload?.platform) ?? ''),
    type: str(n.payload?.contestType),
    startTime: Number.isNaN(start) ? undefined : start,
    url: str(n.payload?.url),
  }
}

/** The contests a digest lists that still exist, soonest first. */
export function digestContests(n: StoredNotification, ctx: ContentContext): ContestRow[] {
  const ids = Array.isArray(n.payload?.contestIds) ? (n.payload.contestIds as unknown[]) : []
  return ids
    .map((id) => (typeof id === 'string' ? ctx.contests.get(id) : undefined))
    .filter((c): c is ContestRow => c !== undefined)
    .sort((a, b) => a.startTime - b.startTime)
}

/** The ids of the contests a notification needs loaded to render. */
export function contestIdsOf(n: StoredNotification): string[] {
  const ids = Array.isArray(n.payload?.contestIds)
    ? (n.payload.contestIds as unknown[]).filter((id): id is string => typeof id === 'string')
    : []
  return n.contestId ? [n.contestId, ...ids] : ids
}

/** A reminder's headline as of now ("starts in 45 minutes"), else the stored title. */
export function headline(n: StoredNotification, ctx: ContentContext): string {
  const kind = kindOf(n)
  const contest = contestView(n, ctx)
  if ((kind === 'reminder' || kind === 'reschedule') && contest?.startTime !== undefined) {
    const when =
      contest.startTime > ctx.now
        ? `starts ${formatUntil(contest.startTime - ctx.now)}`
        : 'has started'
    return kind === 'reschedule'
      ? `Rescheduled: ${contest.name} now ${when}`
      : `Reminder: ${contest.name} ${when}`
  }
  return str(n.payload?.subject) ?? n.title
}

/** The one-paragraph plain text of a notification, in the recipient's time zone. */
export function summary(n: StoredNotification, recipient: Recipient, ctx: ContentContext): string {
  const kind = kindOf(n)
  const contest = contestView(n, ctx)
  if ((kind === 'reminder' || kind === 'reschedule') && contest) {
    const when =
      contest.startTime !== undefined ? formatTime(contest.startTime, recipient.timezone) : 'soon'
    const lead =
      kind === 'reschedule'
        ? `${contest.name} on ${contest.platform} has been rescheduled. It now starts at ${when}.`
        : `${contest.name} on ${contest.platform} starts at ${when}.`
    const custom = str(n.payload?.customMessage)
    return custom ? `${lead} ${custom}` : lead
  }
  if (kind === 'digest') {
    const contests = digestContests(n, ctx)
    if (contests.length === 0) return 'The contests of this digest are no longer scheduled.'
    return contests
      .map(
        (c) =>
          `${c.name} (${platformName(c.platform)}) ${formatTime(c.startTime, recipient.timezone)}`,
      )
      .join('; ')
  }
  return n.message
}

/** The Web Push payload: small, since a push message carries at most about 4 KB. */
export function pushPayload(n: StoredNotification, recipient: Recipient, ctx: ContentContext) {
  const contest = contestView(n, ctx)
  const body = summary(n, recipient, ctx)
  return {
    title: headline(n, ctx).slice(0, 200),
    body: body.length > 1000 ? `${body.slice(0, 999)}…` : body,
    tag: n.id,
    ...(contest?.url && { url: contest.url }),
    data: {
      notificationId: n.id,
      type: n.type,
      ...(n.contestId && { contestId: n.contestId }),
      ...(contest?.startTime !== undefined && { startTime: toIso(contest.startTime) }),
    },
  }
}

/** The template variables of a WhatsApp message: {{1}} the headline, {{2}} the text. */
export function whatsappParams(n: StoredNotification, recipient: Recipient, ctx: ContentContext) {
  return [headline(n, ctx), summary(n, recipient, ctx)]
}
