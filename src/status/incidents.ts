// The incidents table: the platforms' incidents as the sync opens and closes them, and the
// service's own (the watchdog's), each kept 30 days after it ends for /status. Opening is an
// insert the unique keys let through once; closing is an UPDATE of the open row, and only the
// statement that changed it answers the incident, so concurrent runs tell each change once.
import { and, eq, isNull, lt } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { incidents, type IncidentRow } from '../db/schema.ts'
import { DAY_MS } from '../lib/time.ts'
import { newId } from '../lib/ids.ts'
import { log } from '../lib/log.ts'

export type IncidentScope = IncidentRow['scope']

/** How long /status lists an incident after it ended. */
export const INCIDENT_HISTORY_MS = 30 * DAY_MS
// A page's worth: far more than 30 days of one service's incidents should ever hold.
const LISTED_INCIDENTS = 100

export interface PlatformIncidentChange {
  platform: string
  transition: 'opened' | 'closed'
  /** The platform's state when it opened (degraded, failing, blocked). */
  state: string
  /** When the incident began: with the platform, its key. */
  startedAt: number
}

/**
 * Records what the sync's transitions did. A closing whose opening is not recorded (an incident
 * open before this table existed) is written whole, start and end. Never throws: the sync's own
 * writes stand, and the state on GET /platforms stays true whatever happens here.
 */
export async function recordPlatformIncidents(
  db: Db,
  changes: readonly PlatformIncidentChange[],
  now: number,
): Promise<void> {
  if (changes.length === 0) return
  try {
    const statements = changes.map((c) =>
      db
        .insert(incidents)
        .values({
          id: newId(now),
          scope: 'platform',
          subject: c.platform,
          kind: c.state,
          startedAt: c.startedAt,
          endedAt: c.transition === 'closed' ? now : null,
        })
        .onConflictDoUpdate({
          target: [incidents.scope, incidents.subject, incidents.startedAt],
          set: { endedAt: c.transition === 'closed' ? now : null },
          setWhere: isNull(incidents.endedAt),
        }),
    )
    await db.batch(statements as [(typeof statements)[0], ...typeof statements])
  } catch (error) {
    log.error('incident-record-failed', { platforms: changes.map((c) => c.platform), error })
  }
}

export interface OpenedIncident {
  subject: string
  kind: string
  detail: string | null
  startedAt: number
}

/** Opens the service incident of `subject` unless one is open; answers it only when this opened it. */
export async function openServiceIncident(
  db: Db,
  incident: { subject: string; kind: string; detail: string },
  now: number,
): Promise<OpenedIncident | undefined> {
  const rows = await db
    .insert(incidents)
    .values({ id: newId(now), scope: 'service', ...incident, startedAt: now })
    // Either key: another run opened it (the partial unique index of open incidents), or
    // this very opening was written already.
    .onConflictDoNothing()
    .returning({
      subject: incidents.subject,
      kind: incidents.kind,
      detail: incidents.detail,
      startedAt: incidents.startedAt,
    })
  return rows[0]
}

/** Closes the open service incident of `subject`; answers it only when this closed it. */
export async function closeServiceIncident(
  db: Db,
  subject: string,
  now: number,
): Promise<(OpenedIncident & { endedAt: number }) | undefined> {
  const rows = await db
    .update(incidents)
    .set({ endedAt: now })
    .where(
      and(
        eq(incidents.scope, 'service'),
        eq(incidents.subject, subject),
        isNull(incidents.endedAt),
      ),
    )
    .returning({
      subject: incidents.subject,
      kind: incidents.kind,
      detail: incidents.detail,
      startedAt: incidents.startedAt,
    })
  return rows[0] && { ...rows[0], endedAt: now }
}

export interface ListedIncident {
  scope: IncidentScope
  subject: string
  kind: string
  detail: string | null
  startedAt: number
  endedAt: number | null
}

/** Open incidents and those that ended in the last 30 days, newest first (for /status's batch). */
export function recentIncidentsStatement(d1: D1Database, now: number) {
  return d1
    .prepare(
      `SELECT scope, subject, kind, detail, started_at AS startedAt, ended_at AS endedAt
        FROM incidents WHERE ended_at IS NULL OR ended_at >= ?1
        ORDER BY started_at DESC LIMIT ${LISTED_INCIDENTS}`,
    )
    .bind(now - INCIDENT_HISTORY_MS)
}

export async function removeIncidentsEndedBefore(db: Db, cutoff: number): Promise<number> {
  const result = await db.delete(incidents).where(lt(incidents.endedAt, cutoff))
  return result.meta.changes
}
