// The watchdog of the service's own jobs: the sync checks that the scheduler ran in the last hour,
// the scheduler that the sync ran in the last 7 hours and that deliveries are not failing. Trouble
// opens one service incident (told once: status/service-alerts.ts), which closes when it heals.
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { HOUR_MS } from '../lib/time.ts'
import { log } from '../lib/log.ts'
import { failingDeliveryChannels } from '../notifications/delivery/delivery-stats.ts'
import { closeServiceIncident, openServiceIncident } from '../status/incidents.ts'
import { jobEvidence } from '../status/job-runs.ts'
import { tellServiceIncidentClosed, tellServiceIncidentOpened } from '../status/service-alerts.ts'
import { toIso } from '../lib/time.ts'

/** How long each watched job may go without a good run: twice its interval and then some. */
export const WATCHED_JOBS = {
  scheduler: HOUR_MS,
  sync: 7 * HOUR_MS,
} as const

export type WatchedJob = keyof typeof WATCHED_JOBS

export interface WatchCounts {
  incidentsOpened: number
  incidentsClosed: number
}

/** Opens `subject`'s incident when `trouble` says what is wrong, closes it when it is undefined. */
export async function settleIncident(
  env: Env,
  subject: string,
  trouble: { kind: string; detail: string } | undefined,
  now: number,
): Promise<WatchCounts> {
  const db = createDb(env.DB)
  if (trouble) {
    const opened = await openServiceIncident(db, { subject, ...trouble }, now)
    if (opened) {
      log.warn('service-incident-opened', { subject, kind: opened.kind, detail: opened.detail })
      await tellServiceIncidentOpened(env, opened, now)
    }
    return { incidentsOpened: opened ? 1 : 0, incidentsClosed: 0 }
  }
  const closed = await closeServiceIncident(db, subject, now)
  if (closed) {
    log.info('service-incident-closed', { subject, startedAt: toIso(closed.startedAt) })
    await tellServiceIncidentClosed(env, closed, now)
  }
  return { incidentsOpened: 0, incidentsClosed: closed ? 1 : 0 }
}

/** What is wrong with `job`, if it has not finished well within its allowance. */
export async function jobTrouble(env: Env, job: WatchedJob, now: number) {
  const { lastOkAt, recordSince } = await jobEvidence(createDb(env.DB), job)
  const since = lastOkAt ?? recordSince
  // Nothing recorded at all yet, or not for long enough to know.
  if (since === null || now - since <= WATCHED_JOBS[job]) return undefined
  return {
    kind: 'stopped',
    detail:
      lastOkAt === null
        ? `no good run recorded since ${toIso(since)}`
        : `no good run since ${toIso(lastOkAt)}`,
  }
}

/** Whether deliveries of any channel failed above the documented share in the last hour. */
export async function deliveryTrouble(env: Env, now: number) {
  const failing = await failingDeliveryChannels(env.DB, now)
  if (failing.length === 0) return undefined
  return {
    kind: 'failing',
    detail: failing
      .map((f) => `${f.channel}: ${f.failed} of ${f.attempts} attempts failed in the last hour`)
      .join('; '),
  }
}

const add = (a: WatchCounts, b: WatchCounts): WatchCounts => ({
  incidentsOpened: a.incidentsOpened + b.incidentsOpened,
  incidentsClosed: a.incidentsClosed + b.incidentsClosed,
})

/**
 * The checks a job makes of others; never throws, so a watchdog failure (logged) does not fail
 * the job that carries it.
 */
export async function watch(
  env: Env,
  checks: { jobs?: WatchedJob[]; deliveries?: boolean },
  now: number,
): Promise<WatchCounts> {
  let counts: WatchCounts = { incidentsOpened: 0, incidentsClosed: 0 }
  try {
    for (const job of checks.jobs ?? []) {
      counts = add(counts, await settleIncident(env, job, await jobTrouble(env, job, now), now))
    }
    if (checks.deliveries) {
      const trouble = await deliveryTrouble(env, now)
      counts = add(counts, await settleIncident(env, 'deliveries', trouble, now))
    }
  } catch (error) {
    log.error('watchdog-failed', { error })
  }
  return counts
}
