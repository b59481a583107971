// The Worker's Env on Deno: the same settings, as strings, and each binding backed by a Deno port.
import type { Env } from '../src/env.ts'
import { kvStore } from './kv-store.ts'
import { queueProducer } from './queues.ts'
import { limiterNamespace } from './rate-limiter.ts'
import type { SqliteD1Database } from './sqlite-d1.ts'

/** The queue each producer binding sends to, as wrangler.toml's [[queues.producers]] name it. */
export const QUEUE_BINDINGS = {
  NOTIFICATIONS_QUEUE: 'notifications',
  WEBHOOKS_QUEUE: 'webhooks',
  SYNC_QUEUE: 'sync',
  RESULTS_QUEUE: 'results',
} as const

/**
 * `vars` are the settings (wrangler.toml's [vars] and the secrets on Workers: here the process
 * environment of the process).
 */
export function denoEnv(vars: Record<string, string>, db: SqliteD1Database, kv: Deno.Kv): Env {
  const bindings = {
    DB: db,
    KV: kvStore(kv),
    NOTIFICATIONS_QUEUE: queueProducer(kv, QUEUE_BINDINGS.NOTIFICATIONS_QUEUE),
    WEBHOOKS_QUEUE: queueProducer(kv, QUEUE_BINDINGS.WEBHOOKS_QUEUE),
    SYNC_QUEUE: queueProducer(kv, QUEUE_BINDINGS.SYNC_QUEUE),
    RESULTS_QUEUE: queueProducer(kv, QUEUE_BINDINGS.RESULTS_QUEUE),
    RATE_LIMITER: limiterNamespace(kv),
  }
  // Each port implements what the core calls on its binding (src/ports/), not Cloudflare's whole
  // binding type, so the one cast is here; deno/*.test.ts pins each port's behaviour.
  return { ...vars, ...bindings } as unknown as Env
}
