// Admin email operations that reach many users (bulk, announcement, contest reminder): the
// recipients are resolved through the users feature, each gets one notification (worded by its
// kind module), and the sends are enqueued.
import { findContest } from '../../contests/queries.ts'
import { ApiError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import {
  emailEligibility,
  pageEmailAudience,
  type EmailEligibility,
} from '../../users/audiences.ts'
import type { Notifier } from '../context.ts'
import { enqueueNotificationDeliveries } from '../delivery/enqueue.ts'
import { announcementSpec, type AnnouncementText } from '../kinds/announcement.ts'
import { bulkEmailSpec, type BulkEmailText } from '../kinds/bulk-email.ts'
import { manualReminderSpec } from '../kinds/reminder.ts'
import { createNotifications, fanOutContext } from '../scheduling/fan-out.ts'
import { DEFAULT_PAGE_SIZE } from '../scheduling/paging.ts'
import type { NotificationSpec } from '../spec.ts'

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

function skipReason(r: EmailEligibility): string | undefined {
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
  const eligible: string[] = []
  const skipped: Skipped[] = []
  for (const r of await emailEligibility(n.db, userIds)) {
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
    await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueue, now)
  }
  return queued
}

// Each operation gets its own key, so sending the same text again is a new notification.
const operationKey = (kind: string, now: number) => `${kind}:${newId(now)}`

export async function queueBulkEmail(
  n: Notifier,
  body: BulkEmailText & { userIds: string[] },
  now: number,
): Promise<QueuedResult> {
  requireEmail(n)
  const { eligible, skipped } = await resolveRecipients(n, body.userIds)
  const spec = bulkEmailSpec(body, operationKey('bulk', now), now)
  const queued = await queueFor(n, spec, eligible, now)
  return { success: true, total: body.userIds.length, queued, skipped }
}

export interface Announcement extends AnnouncementText {
  filters?: { platforms?: string[]; isActive?: boolean }
}

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
  const platforms = body.filters?.platforms?.length ? body.filters.platforms : undefined
  const active = body.filters?.isActive !== false
  const spec = announcementSpec(body, operationKey('announcement', now), now)
  let after = ''
  let total = 0
  let queued = 0
  for (;;) {
    const userIds = await pageEmailAudience(n.db, { after, active, platforms, limit: pageSize })
    if (userIds.length === 0) break
    total += userIds.length
    const page = await createNotifications(ctx, [{ spec, userIds }])
    queued += page.created
    await enqueueNotificationDeliveries(n.queue, n.d1, page.toQueue, now)
    if (userIds.length < pageSize) break
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
  const custom = body.customMessage?.trim()
  const spec = manualReminderSpec(contest, custom, operationKey('manual', now), now)
  const queued = await queueFor(n, spec, eligible, now)
  return { success: true, total: body.userIds.length, queued, skipped }
}
