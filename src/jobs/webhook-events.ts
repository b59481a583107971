// Scheduler step for webhooks: contest.starting and contest.finished detection, then upkeep of
// the deliveries (lost messages re-queued, old history removed). Meant for the */30 run; its
// counts carry a webhook prefix so they read apart from the notification scheduler's.
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { webhookConfig } from '../webhooks/config.ts'
import { detectContestEvents } from '../webhooks/detection.ts'
import { resealEndpointSecrets } from '../webhooks/endpoints.ts'
import { webhookUpkeep } from '../webhooks/upkeep.ts'

export async function webhookEventsJob(env: Env, now: number): Promise<Record<string, number>> {
  const detected = await detectContestEvents(env, now)
  const db = createDb(env.DB)
  const upkeep = await webhookUpkeep(db, env.WEBHOOKS_QUEUE, now)
  // Only while JWT_SECRET_PREVIOUS is set (a rotation); otherwise it reads nothing.
  const webhookSecretsResealed = await resealEndpointSecrets(db, webhookConfig(env), now)
  return { ...detected, ...upkeep, webhookSecretsResealed }
}
