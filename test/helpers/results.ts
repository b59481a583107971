// The results pipeline in tests: linked handles written as the handles API will store them, ended
// contests, the judges' recorded results answers, a results queue that records what is sent, and
// the consumer's dependencies with the real modules, hooks and stand-in, the pace left to a test.
import { env } from 'cloudflare:test'
import type { Env } from '../../src/env.ts'
import { resultHooks } from '../../src/jobs/results.ts'
import { newId } from '../../src/lib/ids.ts'
import { HOUR_MS } from '../../src/lib/time.ts'
import type { QueueProducer } from '../../src/ports/queue.ts'
import type { ResultsDeps, ResultsMessage } from '../../src/results/consumer.ts'
import { resultsDeps } from '../../src/results/deps.ts'
import type { Platform } from '../../src/platforms/registry.ts'
import { addContests, contest } from './contests.ts'
import { fixtureText, serveResults } from './platforms.ts'
import { standIn } from './stand-in.ts'

/** A recorded results answer of `platform`, parsed ("rating-changes-2289.json"). */
export function resultsFixture(platform: Platform, file: string): any {
  return JSON.parse(fixtureText(platform, `fixtures/results/${file}`))
}

// The recorded results served as the judge module declares them (helper of the modules' tests).
export { serveResults }

/** Answers a Codeforces API method for one contest with `bodies` in turn (the last repeats). */
export function scriptCodeforces(method: string, contestId: string, bodies: unknown[]) {
  return standIn.script({
    method: 'GET',
    pathPrefix: `/codeforces-api/${method}`,
    query: { contestId },
    responses: bodies.map((body) => ({ status: 200, body })),
  })
}

/** A linked handle, as judge_handles holds it. */
export async function linkHandle(
  userId: string,
  platform: string,
  handle: string,
  { relation = 'OWN', state = relation === 'OWN' ? 'PROVEN' : 'UNPROVEN' } = {} as {
    relation?: 'OWN' | 'FRIEND'
    state?: 'PROVEN' | 'UNPROVEN'
  },
) {
  const now = Date.now()
  await env.DB.prepare(
    `INSERT INTO judge_handles (id, user_id, platform, handle, handle_key, relation, state,
       proven_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)`,
  )
    .bind(
      newId(now),
      userId,
      platform,
      handle,
      handle.toLowerCase(),
      relation,
      state,
      state === 'PROVEN' ? now : null,
      now,
    )
    .run()
}

export async function setResultPreferences(userId: string, own: boolean, friends: boolean) {
  await env.DB.prepare(
    `INSERT INTO result_preferences (user_id, own_results, friend_results, updated_at)
       VALUES (?1, ?2, ?3, ?4) ON CONFLICT (user_id) DO UPDATE SET own_results = ?2,
       friend_results = ?3`,
  )
    .bind(userId, own ? 1 : 0, friends ? 1 : 0, Date.now())
    .run()
}

/** A contest of the catalogue that ended `hoursAgo` (two hours long). */
export async function endedContest(
  platform: Platform,
  platformId: string,
  { hoursAgo = 1, name }: { hoursAgo?: number; name?: string } = {},
  now = Date.now(),
) {
  const [row] = await addContests([
    contest(-(hoursAgo + 2), { platform, platformId, ...(name && { name }) }, now),
  ])
  return row
}

export async function clearResults() {
  await env.DB.batch([
    env.DB.prepare('DELETE FROM result_checks'),
    env.DB.prepare('DELETE FROM contest_results'),
    env.DB.prepare('DELETE FROM judge_handles'),
    env.DB.prepare('DELETE FROM result_preferences'),
  ])
}

export interface SentResults {
  body: ResultsMessage
  delaySeconds?: number
}

/** A results queue that keeps what is sent, for the test to hand on itself. */
export function recordingResultsQueue(): QueueProducer<ResultsMessage> & { sent: SentResults[] } {
  const sent: SentResults[] = []
  return {
    sent,
    async send(body, options) {
      sent.push({ body, delaySeconds: options?.delaySeconds })
    },
    async sendBatch(messages) {
      for (const m of messages) sent.push({ body: m.body, delaySeconds: m.delaySeconds })
    },
  }
}

/**
 * The consumer's real dependencies over `e` (modules of the registry, the stand-in's upstreams,
 * the alert and webhook hooks), with a recording queue, no waits inside a module's answer, and
 * the judge's pace always allowing unless a test passes the real one.
 */
export function testResultsDeps(e: Env, over: Partial<ResultsDeps> = {}) {
  const real = resultsDeps(e, resultHooks(e))
  const queue = recordingResultsQueue()
  const deps: ResultsDeps = {
    ...real,
    queue,
    request: (platform, now) => ({ ...real.request(platform, now), pause: async () => {} }),
    pace: async () => ({ allowed: true }),
    ...over,
  }
  return { deps, queue }
}

export const hours = (n: number) => n * HOUR_MS
