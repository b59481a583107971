// Discord scheduled events of the contests a channel subscription announces (its `events` switch):
// the half-hourly run makes one community_events row per (destination, contest) once the contest
// has an announcement there, marks a row due again when its contest moved or was cancelled (the
// row keeps the times Discord holds), and queues the rows due; the queue's consumer claims one,
// creates, moves (PATCH) or deletes the event, and records it, paced, retried and held over a
// 429 as announcements are (deliver.ts). Without Manage Events (50013) the server's events stop,
// the channel is told so once, and the announcements go on.
import { postChannelMessage } from '../channels/discord/bot-api.ts'
import {
  createScheduledEvent,
  deleteScheduledEvent,
  modifyScheduledEvent,
  type GuildAnswer,
  type ScheduledEventBody,
} from '../channels/discord/guild-api.ts'
import { contestUrl, formatDuration, platformName } from '../contests/describe.ts'
import { startingContestsSql } from '../contests/coming.ts'
import { findContestsByIds } from '../contests/notified.ts'
import { findContest } from '../contests/queries.ts'
import type { ContestRow, CommunityDestinationRow } from '../db/schema.ts'
import { log } from '../lib/log.ts'
import {
  failGivenUp,
  GAVE_UP_SQL,
  settleClaimed,
  unclaimed,
  type ClaimedOutcome,
} from '../lib/settle-claimed.ts'
import { MINUTE_MS } from '../lib/time.ts'
import { platformContestsUrl } from '../platforms/registry.ts'
import type { QueueProducer } from '../ports/queue.ts'
import type { AnnouncementDeps } from './deliver.ts'
import { findDestinationById, refuseEvents } from './destinations.ts'
import { MAX_LEAD_MINUTES } from './filters.ts'
import { paceWait } from './pace.ts'

/** The body of an event's message on the notifications queue. */
export interface CommunityEventMessage {
  communityEventId: string
}

export const isCommunityEventMessage = (body: unknown): body is CommunityEventMessage =>
  typeof (body as CommunityEventMessage | null)?.communityEventId === 'string'

const CLAIM_MS = 2 * MINUTE_MS
// A queued PENDING row this old lost its message (a run died between queueing and sending).
const STRANDED_AFTER_MS = 60 * MINUTE_MS
// Rows compared with their contests per run: events of contests still to end.
const CHECKED_PER_RUN = 1000
// Discord's bounds: a name of 1 to 100 characters, a description up to 1,000, a location up to 100.
const NAME_LIMIT = 100
const DESCRIPTION_LIMIT = 1000
const LOCATION_LIMIT = 100

// ?1 now. Every contest still to start that a destination with events on has an announcement of
// gets its row, once (the unique key), whichever of its lead times came first.
const MAKE_SQL = `INSERT INTO community_events (id, destination_id, contest_id, created_at, updated_at)
  SELECT lower(hex(randomblob(12))), d.id, c.id, ?1, ?1
    FROM community_destinations d
    JOIN (${startingContestsSql('?1', `?1 + ${(MAX_LEAD_MINUTES + 24 * 60) * 60_000}`)}) c
    WHERE d.channel = 'discord' AND d.events = 1 AND d.events_refused_at IS NULL
      AND d.dead_at IS NULL
      AND EXISTS (SELECT 1 FROM community_announcements a
        WHERE a.destination_id = d.id AND a.contest_id = c.id)
  ON CONFLICT DO NOTHING`

// Events on Discord whose contest has not ended by the times they hold: compared with it.
const LIVE_SQL = `SELECT id, contest_id AS contestId, start_time AS startTime, end_time AS endTime
  FROM community_events
  WHERE status = 'DONE' AND event_id IS NOT NULL AND deleted_at IS NULL AND end_time > ?1
  ORDER BY end_time LIMIT ${CHECKED_PER_RUN}`

const DUE_AGAIN_SQL = `UPDATE community_events
  SET status = 'PENDING', retry_count = 0, error = NULL, queued_at = NULL, updated_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND status = 'DONE'`

// Taken for queueing by one run: made now, due again, or stranded by a run that died.
const TO_QUEUE_SQL = `UPDATE community_events SET queued_at = ?1
  WHERE id IN (SELECT id FROM community_events
    WHERE status = 'PENDING' AND (queued_at IS NULL OR queued_at < ?2) LIMIT 1000)
  RETURNING id`

const CLAIM_SQL = `UPDATE community_events
  SET claimed_until = ?2, attempts = attempts + 1, updated_at = ?3
  WHERE id = ?1 AND status IN ('PENDING', 'RETRYING') AND coalesce(claimed_until, 0) < ?3
  RETURNING destination_id AS destinationId, contest_id AS contestId, event_id AS eventId,
    start_time AS startTime, end_time AS endTime, retry_count AS retryCount`

const RELEASE_SQL = `UPDATE community_events
  SET claimed_until = NULL, attempts = attempts - 1, updated_at = ?2 WHERE id = ?1`

const HELD_SQL = `SELECT claimed_until AS claimedUntil FROM community_events
  WHERE id = ?1 AND status = 'RETRYING' AND claimed_until >= ?2`

// ?4..?7: what Discord holds now (left as they were when NULL, but for deleted_at).
const RECORD_SQL = `UPDATE community_events
  SET status = ?2, error = ?3, event_id = coalesce(?4, event_id),
      start_time = coalesce(?5, start_time), end_time = coalesce(?6, end_time),
      deleted_at = coalesce(?7, deleted_at), retry_count = retry_count + ?8,
      claimed_until = ?9, updated_at = ?10
  WHERE id = ?1`

const moved = (c: ContestRow, held: { startTime: number | null; endTime: number | null }) =>
  c.startTime !== held.startTime || c.endTime !== held.endTime

/**
 * The scheduler's step, after the announcements are made: rows for the contests newly announced
 * where events are on, rows due again for contests that moved or were cancelled, and all of them
 * queued. Counts for the job's log line.
 */
export async function scheduleEvents(
  deps: Pick<AnnouncementDeps, 'db' | 'd1'>,
  queue: QueueProducer,
  now: number,
) {
  const made = await deps.d1.prepare(MAKE_SQL).bind(now).run()
  const { results: live } = await deps.d1
    .prepare(LIVE_SQL)
    .bind(now)
    .all<{ id: string; contestId: string | null; startTime: number; endTime: number }>()
  const ids = [...new Set(live.flatMap((r) => (r.contestId ? [r.contestId] : [])))]
  const contests = new Map((await findContestsByIds(deps.db, ids)).map((c) => [c.id, c]))
  const changed = live.filter((r) => {
    const c = r.contestId ? contests.get(r.contestId) : undefined
    // Gone or cancelled: deleted. Moved before it starts: moved (a started event keeps its start).
    return !c || !c.isActive || (c.startTime > now && moved(c, r))
  })
  if (changed.length > 0) {
    await deps.d1
      .prepare(DUE_AGAIN_SQL)
      .bind(now, JSON.stringify(changed.map((r) => r.id)))
      .run()
  }
  const { results: due } = await deps.d1
    .prepare(TO_QUEUE_SQL)
    .bind(now, now - STRANDED_AFTER_MS)
    .all<{ id: string }>()
  for (let i = 0; i < due.length; i += 100) {
    await queue.sendBatch(
      due.slice(i, i + 100).map((r) => ({
        body: { communityEventId: r.id } satisfies CommunityEventMessage,
      })),
    )
  }
  return {
    eventsMade: made.meta.changes ?? 0,
    eventsChanged: changed.length,
    eventsQueued: due.length,
  }
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text

/** Where the event is: the contest's page, or its judge's list when that address is too long. */
function location(contest: ContestRow): string {
  const candidates = [contestUrl(contest), platformContestsUrl(contest.platform)]
  const fits = candidates.find((u): u is string => !!u && u.length <= LOCATION_LIMIT)
  return fits ?? clip(platformName(contest.platform), LOCATION_LIMIT)
}

/** The event of a contest: external, at its page, from its start to its end, server only. */
export function eventOf(contest: ContestRow): ScheduledEventBody {
  const url = contestUrl(contest)
  const about =
    `${platformName(contest.platform)} · ${formatDuration(contest.durationMinutes)}` +
    (url ? `\n${url}` : '')
  return {
    name: clip(contest.name, NAME_LIMIT),
    description: clip(about, DESCRIPTION_LIMIT),
    scheduled_start_time: new Date(contest.startTime).toISOString(),
    scheduled_end_time: new Date(contest.endTime).toISOString(),
    entity_type: 3,
    entity_metadata: { location: location(contest) },
    privacy_level: 2,
  }
}

const REFUSED_NOTICE =
  'Contests cannot be added to this server’s events: the bot needs the Manage Events ' +
  'permission. Announcements go on here. Once the bot has it, turn events on again with ' +
  '/contests subscribe … events:true (or on the Communities page).'

interface Recorded {
  error?: string | null
  eventId?: string
  startTime?: number
  endTime?: number
  deletedAt?: number
  retried?: boolean
  heldUntil?: number
}

async function record(
  d1: D1Database,
  id: string,
  status: 'DONE' | 'FAILED' | 'RETRYING',
  r: Recorded,
  now: number,
) {
  await d1
    .prepare(RECORD_SQL)
    .bind(
      id,
      status,
      r.error ?? null,
      r.eventId ?? null,
      r.startTime ?? null,
      r.endTime ?? null,
      r.deletedAt ?? null,
      r.retried ? 1 : 0,
      r.heldUntil ?? null,
      now,
    )
    .run()
}

/** What the row asks of Discord now: nothing, make, move or delete the event. */
function change(
  held: { eventId: string | null; startTime: number | null; endTime: number | null },
  d: CommunityDestinationRow,
  contest: ContestRow | undefined,
  now: number,
): { refusal: string } | { op: 'create' | 'modify' | 'delete' } | { op: 'none' } {
  if (d.deadAt !== null) return { refusal: `The destination is dead: ${d.deadReason ?? 'unknown'}` }
  if (!held.eventId) {
    if (!d.events || d.eventsRefusedAt !== null) return { refusal: 'Events are off here' }
    if (!contest || !contest.isActive) return { refusal: 'The contest is no longer listed' }
    if (contest.startTime <= now) return { refusal: 'The contest has started' }
    return { op: 'create' }
  }
  if (!contest || !contest.isActive) return { op: 'delete' }
  if (contest.startTime > now && moved(contest, held)) return { op: 'modify' }
  return { op: 'none' }
}

function call(
  deps: AnnouncementDeps,
  op: 'create' | 'modify' | 'delete',
  d: CommunityDestinationRow,
  eventId: string | null,
  contest: ContestRow | undefined,
): Promise<GuildAnswer> {
  const guild = d.guildId ?? ''
  if (op === 'create') return createScheduledEvent(deps.env, guild, eventOf(contest!))
  if (op === 'delete') return deleteScheduledEvent(deps.env, guild, eventId!)
  const { scheduled_start_time, scheduled_end_time } = eventOf(contest!)
  return modifyScheduledEvent(deps.env, guild, eventId!, {
    scheduled_start_time,
    scheduled_end_time,
  })
}

/** Makes, moves or deletes one event, once; what the message should do next. */
export async function sendEventChange(
  deps: AnnouncementDeps,
  id: string,
  now: number,
): Promise<ClaimedOutcome> {
  const claimed = await deps.d1
    .prepare(CLAIM_SQL)
    .bind(id, now + CLAIM_MS, now)
    .first<{
      destinationId: string
      contestId: string | null
      eventId: string | null
      startTime: number | null
      endTime: number | null
      retryCount: number
    }>()
  if (!claimed) return unclaimed(deps.d1.prepare(HELD_SQL).bind(id, now), now)
  const [destination, contest] = await Promise.all([
    findDestinationById(deps.db, claimed.destinationId),
    claimed.contestId ? findContest(deps.db, claimed.contestId) : undefined,
  ])
  if (!destination) {
    await record(deps.d1, id, 'FAILED', { error: 'The destination was removed' }, now)
    return { done: true }
  }
  const wanted = change(claimed, destination, contest, now)
  if ('refusal' in wanted) {
    await record(deps.d1, id, 'FAILED', { error: wanted.refusal }, now)
    return { done: true }
  }
  if (wanted.op === 'none') {
    await record(deps.d1, id, 'DONE', {}, now)
    return { done: true }
  }
  const wait = await paceWait(deps.env, destination, now)
  if (wait > 0) {
    await deps.d1.prepare(RELEASE_SQL).bind(id, now).run()
    return { done: false, waiting: true, delaySeconds: wait }
  }
  const calledAt = Date.now()
  const answer = await call(deps, wanted.op, destination, claimed.eventId, contest).catch(
    (error: unknown): GuildAnswer => ({ ok: false, kind: 'transient', error: String(error) }),
  )
  // Deleted by hand on Discord meanwhile: nothing left to move or delete, and nothing is remade.
  if (answer.ok || (answer.kind === 'unknown' && wanted.op !== 'create')) {
    const times = contest && { startTime: contest.startTime, endTime: contest.endTime }
    const result: Recorded =
      wanted.op === 'delete' || !answer.ok
        ? { deletedAt: now }
        : { ...times, ...(answer.id && wanted.op === 'create' && { eventId: answer.id }) }
    await record(deps.d1, id, 'DONE', result, now)
    return { done: true }
  }
  if (answer.kind === 'missing-permissions') {
    await record(deps.d1, id, 'FAILED', { error: answer.error }, now)
    // The one call that turned the server's events off tells the channel, once.
    const refused = await refuseEvents(deps.db, destination.id, now)
    if (refused) {
      const told = await postChannelMessage(deps.env, destination.chatId, {
        content: REFUSED_NOTICE,
        embeds: [],
        allowed_mentions: { parse: [] },
      }).catch((error: unknown) => ({ ok: false, error: String(error) }))
      if (!told.ok) log.warn('community-events-notice-failed', { destinationId: destination.id })
    }
    return { done: true }
  }
  // A 429 comes back when its retry_after says, as an announcement does.
  return settleClaimed(
    {
      error: answer.error,
      transient: answer.kind === 'rate-limited' || answer.kind === 'transient',
      retryAfterSeconds: answer.retryAfterSeconds,
    },
    { retryCount: claimed.retryCount, calledAt },
    (status, r) => record(deps.d1, id, status, r, now),
    now,
  )
}

/** Records the event changes the queue gave up on as FAILED. */
export async function failEventChanges(d1: D1Database, ids: readonly string[], now: number) {
  await failGivenUp(d1.prepare(`UPDATE community_events ${GAVE_UP_SQL}`), ids, now)
}
