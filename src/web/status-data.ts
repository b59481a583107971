// What /status and /status.json show, read once a minute per location for both (http/shared-read):
// the platforms from the sync's snapshot in KV, and everything else in one D1 batch (the recent
// incidents, the day's delivery outcomes per channel, each cron job's last run).
import { channelModule, channelProviders, enabledChannels } from '../channels/registry.ts'
import { catalogueVersion } from '../contests/catalogue-version.ts'
import type { Env } from '../env.ts'
import { sharedRead } from '../http/shared-read.ts'
import { MINUTE_MS, toIso, toIsoOrUndefined } from '../lib/time.ts'
import {
  deliveryStatsStatement,
  readDeliveryStats,
  STATS_WINDOW_MS,
  type StatsRow,
} from '../notifications/delivery/delivery-stats.ts'
import { platformName } from '../platforms/registry.ts'
import { recentIncidentsStatement, type ListedIncident } from '../status/incidents.ts'
import { lastJobRunsStatement, type LastJobRun } from '../status/job-runs.ts'
import { serviceSubjectName } from '../status/service-alerts.ts'
import { platformsSnapshot } from '../sync/platform-view.ts'
import type { ServiceStatus } from './status-schemas.ts'

/** A cron job as the jobs' router declares it (handed in by the app: web sits below jobs). */
export interface CronJob {
  name: string
  cron: string
}

export const STATUS_TTL_SECONDS = 60
// Past the scheduler's 10-minute budget three times over: a run this old that never finished died.
const UNFINISHED_AFTER_MS = 30 * MINUTE_MS

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10)

/** The read itself, without the shared value in front (the bench's "uncached" case). */
export async function readServiceStatus(
  env: Env,
  jobs: readonly CronJob[],
  now: number,
): Promise<ServiceStatus> {
  const [platforms, [incidents, deliveries, runs]] = await Promise.all([
    platformsSnapshot(env),
    env.DB.batch([
      recentIncidentsStatement(env.DB, now),
      deliveryStatsStatement(env.DB, now),
      lastJobRunsStatement(
        env.DB,
        jobs.map((j) => j.name),
      ),
    ]),
  ])
  const stats = readDeliveryStats((deliveries.results ?? []) as StatsRow[])
  const enabled = enabledChannels(channelProviders(env))
  const listed = (incidents.results ?? []) as ListedIncident[]
  const lastRuns = new Map(((runs.results ?? []) as LastJobRun[]).map((r) => [r.job, r]))
  const degraded =
    listed.some((i) => i.endedAt === null) || platforms.some((p) => p.enabled && p.state !== 'ok')
  return {
    status: degraded ? 'degraded' : 'ok',
    generatedAt: toIso(now),
    platforms: platforms.map((p) => ({
      id: p.id,
      name: p.name,
      enabled: p.enabled,
      state: p.state,
      ...(p.lastSuccess && { lastSuccess: p.lastSuccess }),
      upcoming: p.upcoming,
      source: p.source,
    })),
    incidents: listed.map((i) => ({
      scope: i.scope,
      subject: i.subject,
      name: i.scope === 'platform' ? platformName(i.subject) : serviceSubjectName(i.subject),
      kind: i.kind,
      // Only the watchdog's own words: a platform's last error may quote an upstream answer.
      ...(i.scope === 'service' && i.detail && { detail: i.detail }),
      startedAt: toIso(i.startedAt),
      ...(i.endedAt !== null && { endedAt: toIso(i.endedAt) }),
    })),
    deliveries: {
      windowHours: STATS_WINDOW_MS / 3_600_000,
      limited: stats.limited,
      channels: stats.channels.map((s) => ({
        channel: s.channel,
        label: channelModule(s.channel).label,
        enabled: enabled[s.channel],
        sent: s.sent,
        retried: s.retried,
        failed: s.failed,
        medianDelaySeconds: seconds(s.medianDelayMs),
        p95DelaySeconds: seconds(s.p95DelayMs),
      })),
    },
    jobs: jobs.map(({ name, cron }) => {
      const run = lastRuns.get(name)
      if (!run) return { job: name, cron, lastRun: null }
      const outcome =
        run.outcome === 'running' && now - run.startedAt > UNFINISHED_AFTER_MS
          ? 'unfinished'
          : run.outcome
      return {
        job: name,
        cron,
        lastRun: {
          startedAt: toIso(run.startedAt),
          ...(run.finishedAt !== null && { finishedAt: toIsoOrUndefined(run.finishedAt) }),
          outcome,
        },
      }
    }),
  }
}

/**
 * The status as of at most a minute ago, shared by the page and the JSON of a location. Keyed by
 * the catalogue version too, so a sync that changed a platform's state shows at once.
 */
export async function serviceStatus(env: Env, jobs: readonly CronJob[]): Promise<ServiceStatus> {
  const version = await catalogueVersion(env.KV)
  const { value } = await sharedRead('status', version, STATUS_TTL_SECONDS * 1000, () =>
    readServiceStatus(env, jobs, Date.now()),
  )
  return value
}
