// The results pipeline's jobs: the scheduler's step that makes result checks and queues those
// due, and the results queue's consumer with the hooks called once a contest's results are stored
// (the notifier's alerts, the webhook event, the communities' rank posts).
import { createRankPosts } from '../communities/rank-posts.ts'
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { notifier } from '../notifications/context.ts'
import { createResultAlerts } from '../notifications/scheduling/results.ts'
import type { QueueBatch } from '../ports/queue.ts'
import { createResultChecks, dueChecks } from '../results/checks.ts'
import {
  consumeResultMessages,
  type OnPublished,
  type ResultsMessage,
} from '../results/consumer.ts'
import { paceOf, platformsWithResults, resultsDeps } from '../results/deps.ts'
import { followRenames } from '../results/renames.ts'
import { PLATFORM_MODULES } from '../platforms/registry.ts'
import { emitResultsPublished } from '../webhooks/result-events.ts'

// Queues take at most 100 messages a sendBatch call.
const MESSAGES_PER_SEND = 100

/** What is done with a contest's stored results, in order (results/consumer.ts OnPublished). */
export function resultHooks(env: Env): OnPublished[] {
  return [
    (p) =>
      createResultAlerts(notifier(env), {
        contest: p.contest,
        rated: p.rated,
        participants: p.participants,
        digest: p.digest,
        recheck: !p.first,
        now: p.now,
      }),
    async (p) => {
      if (p.first) await emitResultsPublished(env, p, p.now)
    },
    (p) => createRankPosts(env.DB, env.NOTIFICATIONS_QUEUE, p),
  ]
}

/**
 * The scheduler's step: a check for each recently ended contest of a judge with results where
 * someone linked a handle, then one message per check due (the consumer queues its own next asks;
 * this catches what a failure or a wait longer than the queue's delay left).
 */
export async function resultChecksJob(
  env: Env,
  now: number,
  platforms: readonly string[] = platformsWithResults(env),
): Promise<Record<string, number>> {
  const db = createDb(env.DB)
  const created = await createResultChecks(db, platforms, now)
  const due = await dueChecks(db, now)
  for (let i = 0; i < due.length; i += MESSAGES_PER_SEND) {
    const chunk = due.slice(i, i + MESSAGES_PER_SEND)
    await env.RESULTS_QUEUE.sendBatch(
      chunk.map((contestId) => ({ body: { contestId } satisfies ResultsMessage })),
    )
  }
  return { resultChecksCreated: created, resultChecksQueued: due.length }
}

export async function consumeResultsQueue(batch: QueueBatch, env: Env): Promise<void> {
  await consumeResultMessages(resultsDeps(env, resultHooks(env)), batch.messages)
}

/**
 * The daily walk over the linked handles of judges that rename handles (Codeforces and its gyms):
 * a batch each from where the last day's stopped, renames followed (results/renames.ts).
 */
export async function handleRenamesJob(env: Env, now: number): Promise<Record<string, number>> {
  const deps = resultsDeps(env, [])
  const pace = paceOf(env)
  const counts = { handlesAskedForRenames: 0, handlesRenamed: 0, handlesGone: 0 }
  for (const module of PLATFORM_MODULES) {
    const renames = module.results?.renames
    if (!renames || !module.source) continue
    const run = await followRenames(
      {
        db: deps.db,
        kv: env.KV,
        renames,
        request: deps.request(module.id, now),
        pace: () => pace(module.id, module.results!.minIntervalMs),
      },
      module.id,
      now,
    )
    counts.handlesAskedForRenames += run.asked
    counts.handlesRenamed += run.renamed
    counts.handlesGone += run.gone
  }
  return counts
}
