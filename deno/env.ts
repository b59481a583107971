// The Worker's Env on Deno: the same settings, as strings, and each binding backed by a Deno port.
import type { Env } from '../src/env.ts'
import { kvStore } from './kv-store.ts'
import { queueProducer } from './queues.ts'
import { limiterNamespace } from './rate-limiter.ts'
import type { SqliteD1Database } from './sqlite-d1.ts'

/**
 * `vars` are the settings (wrangler.toml's [vars] and the secrets on Workers: here the process
 * environment, with .dev.vars loaded into it). The queue names are wrangler.toml's, so a message
 * reaches the consumer it reaches there.
 */
export function denoEnv(vars: Record<string, string>, db: SqliteD1Database, kv: Deno.Kv): Env {
  const bindings = {
    DB: db,
    KV: kvStore(kv),
    NOTIFICATIONS_QUEUE: queueProducer(kv, 'notifications'),
    WEBHOOKS_QUEUE: queueProducer(kv, 'webhooks'),
    RATE_LIMITER: limiterNamespace(kv),
  }
  // Each port implements what the core calls on its binding (src/ports/), not Cloudflare's whole
  // binding type, so the one cast is here; deno/*.test.ts pins each port's behaviour.
  return { ...vars, ...bindings } as unknown as Env
}
