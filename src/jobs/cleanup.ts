// Daily cleanup: finished contests past the retention period, expired sessions and email codes,
// accounts past their 30 days of recovery or 7 days unproven, ingestion jobs stuck for over 3000 seconds,
// notifications past their expiry, Telegram link tokens nobody used, community claims whose
// account is deleted or unproven, the ids of Discord interactions whose signatures are stale, and
// the cron runs and closed incidents past their retention (status/); and the walk that follows
// the handles a judge renamed (Codeforces).
import { purgeDeletedAccounts, purgeUnprovenAccounts } from '../account/purge.ts'
import { removeExpiredAuthRecords } from '../auth/cleanup.ts'
import { removeStaleInteractions } from '../channels/discord/interaction-replay.ts'
import { releaseUnheldCommunities } from '../communities/deletion.ts'
import { bumpCatalogueVersion } from '../contests/catalogue-version.ts'
import { removeFinishedBefore } from '../contests/maintenance.ts'
import { createDb } from '../db/client.ts'
import { settings, type Env } from '../env.ts'
import { DAY_MS } from '../lib/time.ts'
import { removeExpiredNotifications } from '../notifications/cleanup.ts'
import { intelligenceClient } from '../resources/service.ts'
import { INCIDENT_HISTORY_MS, removeIncidentsEndedBefore } from '../status/incidents.ts'
import { JOB_RUN_RETENTION_MS, removeJobRunsBefore } from '../status/job-runs.ts'
import { sweepStuckIngestionJobs } from '../resources/stuck-jobs.ts'
import { removeExpiredTelegramLinks } from '../users/telegram-links.ts'
import { handleRenamesJob } from './results.ts'

export async function cleanupJob(env: Env, now: number) {
  const db = createDb(env.DB)
  const cutoff = now - settings(env).CONTEST_RETENTION_DAYS * DAY_MS
  const contestsRemoved = await removeFinishedBefore(db, cutoff)
  if (contestsRemoved > 0) await bumpCatalogueVersion(env.KV)
  const auth = await removeExpiredAuthRecords(db, now)
  const accountsPurged = await purgeDeletedAccounts(db, now)
  const unprovenAccountsRemoved = await purgeUnprovenAccounts(db, now)
  const ingestion = await sweepStuckIngestionJobs(db, intelligenceClient(env), now)
  const ttlMs = settings(env).NOTIFICATION_TTL_DAYS * DAY_MS
  const notificationsExpired = await removeExpiredNotifications(env.DB, now - ttlMs)
  const telegramLinksExpired = await removeExpiredTelegramLinks(db, now)
  const communitiesReleased = await releaseUnheldCommunities(db, now)
  const discordInteractionsRemoved = await removeStaleInteractions(db, now)
  const jobRunsRemoved = await removeJobRunsBefore(db, now - JOB_RUN_RETENTION_MS)
  const incidentsRemoved = await removeIncidentsEndedBefore(db, now - INCIDENT_HISTORY_MS)
  const renames = await handleRenamesJob(env, now)
  return {
    contestsRemoved,
    ...auth,
    accountsPurged,
    unprovenAccountsRemoved,
    ...ingestion,
    notificationsExpired,
    telegramLinksExpired,
    communitiesReleased,
    discordInteractionsRemoved,
    jobRunsRemoved,
    incidentsRemoved,
    ...renames,
  }
}
