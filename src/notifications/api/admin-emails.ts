// Admin email operations that reach many users (bulk, announcement, contest reminder): the
// recipients are resolved in SQL, each gets one notification, and the sends are enqueued.
import { findContest } from '../contests/queries.ts'
import { ApiError, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { EMAIL_ONLY, fanOutContext, type Notifier } from './context.ts'
import { enqueueDeliveries } from './enqueue.ts'
import { createNotifications, type NotificationSpec } from './fan-out.ts'
import { DEFAULT_PAGE_SIZE, reminderPayload } from './reminders.ts'
import { formatTime, platformName } from './wording.ts'

export interface Skipped {
  userId: string
  reason: string
}

export interface QueuedResult {
  success: true
  total: number
  queued: number
  skipped: Skipped[]
}

interface Resolution {
  id: string
  found: string | null
  isActive: number | null
  verified: number | null
  deleted: number | null
  notifyEmail: number | null
}

// The requested ids bound as one JSON array (D1 allows 100 parameters; a request may name 1000).
const RESOLVE_SQL = `SELECT j.value AS id, u.id AS found, u.is_active AS isActive,
    u.email_verified_at IS NOT NULL AS verified, u.deleted_at IS NOT NULL AS deleted,
    u.notify_email AS notifyEmail
  FROM json_each(?1) j LEFT JOIN users u ON u.id = j.value`

function skipReason(r: Resolution): string | undefined {
  if (!r.found || r.deleted) return 'User not found'
  if (!r.isActive) return 'Account is deactivated'
  if (!r.verified) return 'Email address is not verified'
  if (!r.notifyEmail) return 'Email notifications are turned off'
  return undefined
}

function requireEmail(n: Notifier) {
  if (!n.enabled.email) {
    throw new ApiError(
      503,
      'Email delivery is not configured: RESEND_API_KEY is not set and DEV_OUTBOX is off',
    )
  }
}

/** Splits the requested users into those who can get the email and the skipped, with why. */
async function resolveRecipients(n: Notifier, userIds: readonly string[]) {
  const { results } = await n.d1
    .prepare(RESOLVE_SQL)
    .bind(JSON.stringify(userIds))
    .all<Resolution>()
  const eligible: string[] = []
  const skipped: Skipped[] = []
  for (const r of results) {
    const reason = skipReason(r)
    if (reason) skipped.push({ userId: r.id, reason })
    else eligible.push(r.id)
  }
  return { eligible, skipped }
}

async function queueFor(n: Notifier, spec: NotificationSpec, userIds: string[], now: number) {
  const ctx = fanOutContext(n, now)
  let queued = 0
  for (let i = 0; i < userIds.length; i += DEFAULT_PAGE_SIZE) {
    const page = await createNotifications(ctx, [
      { spec, userIds: userIds.slice(i, i + DEFAULT_PAGE_SIZE) },
    ])
    queued += page.created
    await enqueueDeliveries(n.queue, n.d1, page.toQueue, now)
  }
  return queued
}

// Each operation gets its own key, so sending the same text again is a new notification.
const operationKey = (kind: string, now: number) => `${kind}:${newId(now)}`

export async function queueBulkEmail(
  n: Notifier,
  body: { userIds: string[]; subject: string; html: string; text?: string },
  now: number,
): Promise<QueuedResult> {
  requireEmail(n)
  const { eligible, skipped } = await resolveRecipients(n, body.userIds)
  const spec: NotificationSpec = {
    contestId: null,
    type: 'SYSTEM_ALERT',
    dedupeKey: operationKey('bulk', now),
    title: body.subject,
    message: body.text ?? body.subject,
    payload: {
      kind: 'bulk',
      subject: body.subject,
      html: body.html,
      ...(body.text && { text: body.text }),
    },
    channels: EMAIL_ONLY,
    scheduledAt: now,
  }
  const queued = await queueFor(n, spec, eligible, now)
  return { success: true, total: body.userIds.length, queued, skipped }
}

export interface Announcement {
  subject: string
  title: string
  message: string
  actionUrl?: string
  actionText?: string
  filters?: { platforms?: string[]; isActive?: boolean }
}

// Live, verified users accepting email, with the requested account state, following one of the
// requested platforms when any are given. Keyset-paged by id over the primary key.
const ANNOUNCEMENT_RECIPIENTS_SQL = `SELECT u.id AS id FROM users u
  WHERE u.id > ?1 AND u.deleted_at IS NULL AND u.email_verified_at IS NOT NULL
    AND u.is_active = ?2 AND u.notify_email = 1
    AND (?3 IS NULL OR EXISTS (SELECT 1 FROM user_platforms up WHERE up.user_id = u.id
      AND up.platform IN (SELECT value FROM json_each(?3))))
  ORDER BY u.id LIMIT ?4`

/**
 * An announcement goes to every user the filters select (active accounts unless isActive is
 * false); `total` counts them, and nobody is skipped since the filters already chose.
 */
export async function queueAnnouncement(
  n: Notifier,
  body: Announcement,
  now: number,
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<QueuedResult> {
  requireEmail(n)
  const ctx = fanOutContext(n, now)
  const platforms = body.filters?.platforms?.length ? JSON.stringify(body.filters.platforms) : null
  const active = body.filters?.isActive === false ? 0 : 1
  const spec: NotificationSpec = {
    contestId: null,
    type: 'SYSTEM_ALERT',
    dedupeKey: operationKey('announcement', now),
    title: body.title,
    message: body.message,
    payload: {
      kind: 'announcement',
      subject: body.subject,
      title: body.title,
      message: body.message,
      ...(body.actionUrl && { actionUrl: body.actionUrl }),
      ...(body.actionText && { actionText: body.actionText }),
    },
    channels: EMAIL_ONLY,
    scheduledAt: now,
  }
  let after = ''
  let total = 0
  let queued = 0
  for (;;) {
    const { results } = await n.d1
      .prepare(ANNOUNCEMENT_RECIPIENTS_SQL)
      .bind(after, active, platforms, pageSize)
      .all<{ id: string }>()
    if (results.length === 0) break
    total += results.length
    const userIds = results.map((r) => r.id)
    const page = await createNotifications(ctx, [{ spec, userIds }])
    queued += page.created
    await enqueueDeliveries(n.queue, n.d1, page.toQueue, now)
    if (results.length < pageSize) break
    after = userIds[userIds.length - 1]
  }
  return { success: true, total, queued, skipped: [] }
}

export async function queueContestReminder(
  n: Notifier,
  body: { contestId: string; userIds: string[]; customMessage?: string },
  now: number,
): Promise<QueuedResult> {
  requireEmail(n)
  const contest = await findContest(n.db, body.contestId)
  if (!contest) throw notFound(`Contest with ID ${body.contestId} not found`)
  const { eligible, skipped } = await resolveRecipients(n, body.userIds)
  const platform = platformName(contest.platform)
  const custom = body.customMessage?.trim()
  const spec: NotificationSpec = {
    contestId: contest.id,
    type: 'CONTEST_REMINDER',
    dedupeKey: operationKey('manual', now),
    title: `Reminder: ${contest.name} starts at ${formatTime(contest.startTime)}`,
    message:
      `${contest.name} on ${platform} starts at ${formatTime(contest.startTime)}.` +
      (custom ? ` ${custom}` : ''),
    payload: reminderPayload(contest, custom ? { customMessage: custom } : {}),
    channels: EMAIL_ONLY,
    scheduledAt: now,
  }
  const queued = await queueFor(n, spec, eligible, now)
  return { success: true, total: body.userIds.length, queued, skipped }
}
