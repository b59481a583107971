// The catalogue sync: every platform fetched, validated and upserted on its own, so one failing
// platform never stops the others; runs never overlap; each run is recorded.
import { bumpCatalogueVersion } from '../contests/catalogue-version.ts'
import type { Platform } from '../contests/schemas.ts'
import { upsertPlatformContests } from '../contests/upsert.ts'
import type { ContestRow } from '../db/schema.ts'
import { createDb, type Db } from '../db/client.ts'
import { settings, type Env, type Settings } from '../env.ts'
import { acquireLock, releaseLock } from '../db/job-lock.ts'
import { newId } from '../lib/ids.ts'
import { log } from '../lib/log.ts'
import type { FetchFn } from './adapter.ts'
import { PLATFORM_ADAPTERS, VOLATILE_METADATA_KEYS } from './adapters.ts'
import { recordSyncRuns, type SyncRunInput } from './runs.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

export interface PlatformSyncReport {
  platform: Platform
  created: number
  updated: number
  unchanged: number
  /** Upstream items that could not be stored (invalid), each explained in the run's log. */
  failed: number
  /** Well-formed items of a kind outside the platform's type enumeration. */
  unsupported: number
  rescheduled: number
  statements: number
  durationMs: number
  error?: string
}

export interface SyncDeps {
  db: Db
  kv: KeyValueStore
  settings: Settings
  fetchFn: FetchFn
}

/** The real dependencies of a sync in the Worker: D1, KV, the settings and the global fetch. */
export function syncDeps(env: Env): SyncDeps {
  return {
    db: createDb(env.DB),
    kv: env.KV,
    settings: settings(env),
    fetchFn: (input, init) => fetch(input, init),
  }
}

export class SyncInProgressError extends Error {
  constructor() {
    super('A contest sync is already running')
  }
}

// Longer than any sync can take (four fetches of at most 15 s plus the writes).
const LEASE_MS = 10 * 60_000

/** Syncs `platforms`, returning one report each, plus the contests it created. */
export async function runSync(
  deps: SyncDeps,
  platforms: readonly Platform[],
  now: number,
): Promise<{ reports: PlatformSyncReport[]; created: ContestRow[] }> {
  const holder = newId(now)
  if (!(await acquireLock(deps.db, 'contest-sync', holder, now, LEASE_MS))) {
    throw new SyncInProgressError()
  }
  try {
    const outcomes = await Promise.all(platforms.map((p) => syncPlatform(deps, p, now)))
    const reports = outcomes.map((o) => o.report)
    await recordSyncRuns(
      deps.db,
      outcomes.map((o) => o.run),
    )
    if (reports.some((r) => r.created + r.updated > 0)) await bumpCatalogueVersion(deps.kv)
    return { reports, created: outcomes.flatMap((o) => o.created) }
  } finally {
    await releaseLock(deps.db, 'contest-sync', holder)
  }
}

async function syncPlatform(deps: SyncDeps, platform: Platform, now: number) {
  const started = Date.now()
  const empty = { created: 0, updated: 0, unchanged: 0, failed: 0, unsupported: 0, rescheduled: 0 }
  let report: PlatformSyncReport
  let created: ContestRow[] = []
  try {
    const fetched = await PLATFORM_ADAPTERS[platform](deps.settings, deps.fetchFn, now)
    const written = await upsertPlatformContests(
      deps.db,
      platform,
      fetched.contests,
      now,
      VOLATILE_METADATA_KEYS[platform],
    )
    created = written.created
    report = {
      platform,
      created: written.created.length,
      updated: written.updated,
      unchanged: written.unchanged,
      failed: fetched.skipped,
      unsupported: fetched.unsupported,
      rescheduled: written.rescheduled,
      statements: written.statements,
      durationMs: Date.now() - started,
    }
    if (fetched.errors.length > 0) {
      const skipped = fetched.errors.slice(0, 20)
      log.with({ job: 'sync' }).warn('sync-items-skipped', { platform, skipped })
    }
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err)
    report = { platform, ...empty, statements: 0, durationMs: Date.now() - started, error }
  }
  const run: SyncRunInput = {
    id: newId(now),
    platform,
    status: report.error ? 'failed' : 'success',
    startedAt: now,
    finishedAt: now + report.durationMs,
    created: report.created,
    updated: report.updated,
    unchanged: report.unchanged,
    skipped: report.failed,
    error: report.error ?? null,
  }
  return { report, run, created }
}
