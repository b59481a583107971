// The Worker as `npm run bench` measures it: the real entry (src/index.ts) with its KV binding
// wrapped so every call is counted, and GET /__bench/kv answering the counts since the last
// POST /__bench/kv/reset. Only the bench runs it (`wrangler dev` with this file as the script).
import worker from '../../src/index.ts'
import type { Env } from '../../src/env.ts'

export { RateLimiter } from '../../src/index.ts'

const counts: Record<string, number> = {}
const wrapped = new WeakMap<Env, Env>()

function countingKv(kv: KVNamespace): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        counts[String(prop)] = (counts[String(prop)] ?? 0) + 1
        return value.apply(target, args)
      }
    },
  })
}

/** The same env object for every request of the isolate, as the runtime hands the real one. */
function counted(env: Env): Env {
  let e = wrapped.get(env)
  if (!e) {
    e = { ...env, KV: countingKv(env.KV) }
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
    return worker.fetch(request, counted(env), ctx)
  },
  scheduled: (controller, env, ctx) => worker.scheduled(controller, counted(env), ctx),
  queue: (batch, env) => worker.queue(batch, counted(env)),
} satisfies ExportedHandler<Env>
