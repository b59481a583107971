// The */30 Cron Trigger: stored contest phases follow the clock, then the notification scheduler,
// then the community announcements, their Discord events and the edits and deletions of the
// messages posted, then the webhooks' contest.starting /
// contest.finished detection, then the result checks of contests ended (jobs/results.ts). Before
// all of it, the watchdog's checks of the sync and of the last hour's deliveries.
import { announceDue } from '../communities/announce.ts'
import { scheduleMessageChanges } from '../communities/changes.ts'
import { scheduleEvents } from '../communities/events.ts'
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { runNotificationScheduler } from '../notifications/scheduling/scheduler.ts'
import { refreshPhasesJob } from './refresh-phases.ts'
import { resultChecksJob } from './results.ts'
import { watch } from './watchdog.ts'
import { webhookEventsJob } from './webhook-events.ts'

export async function schedulerJob(env: Env, now: number): Promise<Record<string, number>> {
  const watched = await watch(env, { jobs: ['sync'], deliveries: true }, now)
  const phases = await refreshPhasesJob(env, now)
  const notifications = await runNotificationScheduler(env, now)
  const announcements = await announceDue(env.DB, env.NOTIFICATIONS_QUEUE, now)
  const communities = { db: createDb(env.DB), d1: env.DB }
  const events = await scheduleEvents(communities, env.NOTIFICATIONS_QUEUE, now)
  // The messages already posted follow their contests: edited when moved, deleted after the end.
  const changes = await scheduleMessageChanges(communities, env.NOTIFICATIONS_QUEUE, now)
  const webhooks = await webhookEventsJob(env, now)
  const results = await resultChecksJob(env, now)
  return {
    ...phases,
    ...notifications,
    ...announcements,
    ...events,
    ...changes,
    ...webhooks,
    ...results,
    ...watched,
  }
}
