// The Worker as `npm run bench` measures it: the real entry (src/index.ts) with its KV binding
// wrapped so every call is counted, and GET /__bench/kv answering the counts since the last
// /__bench/kv/reset. Only the bench runs it (`wrangler dev` with this file as the script). D1's
// batches are counted too (`d1.batch`), and GET /__bench/status-uncached answers /status.json's
// read itself, without the value shared for a minute in front of it.
import worker from '../../src/index.ts'
import type { Env } from '../../src/env.ts'
import { CRONS } from '../../src/jobs/cron.ts'
import { readServiceStatus } from '../../src/web/status-data.ts'
import { countingCalls } from '../helpers/counting.ts'

export { RateLimiter } from '../../src/index.ts'

const counts: Record<string, number> = {}
const wrapped = new WeakMap<Env, Env>()

/** The same env object for every request of the isolate, as the runtime hands the real one. */
function counted(env: Env): Env {
  let e = wrapped.get(env)
  if (!e) {
    e = {
      ...env,
      KV: countingCalls(env.KV, (method) => (counts[method] = (counts[method] ?? 0) + 1)),
      DB: countingCalls(env.DB, (method) => {
        if (method === 'batch') counts['d1.batch'] = (counts['d1.batch'] ?? 0) + 1
      }),
    }
    wrapped.set(env, e)
  }
  return e
}

export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url)
    if (pathname === '/__bench/kv') return Response.json(counts)
    if (pathname === '/__bench/kv/reset') {
      for (const key of Object.keys(counts)) delete counts[key]
      return new Response(null, { status: 204 })
    }
    if (pathname === '/__bench/status-uncached') {
      const jobs = Object.entries(CRONS).map(([cron, job]) => ({ name: job.name, cron }))
      return readServiceStatus(counted(env), jobs, Date.now()).then((s) => Response.json(s))
    }
    return worker.fetch(request, counted(env), ctx)
  },
  scheduled: (controller, env, ctx) => worker.scheduled(controller, counted(env), ctx),
  queue: (batch, env) => worker.queue(batch, counted(env)),
} satisfies ExportedHandler<Env>
