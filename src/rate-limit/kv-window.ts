// Approximate fixed windows in KV, for anonymous per-IP limits where a Durable Object round trip
// per request would cost more than the limit is worth. KV is eventually consistent and accepts
// about one write per second per key, so counts can lag under bursts; each isolate also remembers
// what it wrote, so one client hammering one location is still counted.
import type { WindowResult } from '../ports/rate-limiter.ts'
import { consumeWindow } from './window.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

const KEY_PREFIX = 'rl:'
// KV refuses expirations shorter than 60 seconds.
const MIN_TTL_SECONDS = 60
const MAX_REMEMBERED = 10_000
const written = new Map<string, number>()

function remember(key: string, count: number) {
  if (written.size >= MAX_REMEMBERED) written.clear()
  written.set(key, count)
}

/** The window of `name` that `now` falls in: its key and what it has counted so far. */
async function currentWindow(kv: KeyValueStore, name: string, windowMs: number, now: number) {
  const start = Math.floor(now / windowMs) * windowMs
  const key = `${KEY_PREFIX}${name}:${start}`
  const stored = Number(await kv.get(key)) || 0
  return { key, start, count: Math.max(stored, written.get(key) ?? 0) }
}

/** Whether the window of `name` would still allow a request, without counting one. */
export async function peekKvWindow(
  kv: KeyValueStore,
  name: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<WindowResult> {
  const { start, count } = await currentWindow(kv, name, windowMs, now)
  const { result } = consumeWindow({ start, count }, limit, windowMs, now)
  return { ...result, remaining: Math.max(0, limit - count) }
}

/**
 * Counts one request for `name` against `limit` per `windowMs`. Windows are aligned to multiples
 * of `windowMs`, so each window is its own key and expires on its own. The write is handed to
 * `defer` (waitUntil) so the caller never waits for it, and a refused write is only a lost count.
 */
export async function hitKvWindow(
  kv: KeyValueStore,
  name: string,
  limit: number,
  windowMs: number,
  now: number,
  defer: (work: Promise<unknown>) => void,
): Promise<WindowResult> {
  const { key, start, count } = await currentWindow(kv, name, windowMs, now)
  const { state, result } = consumeWindow({ start, count }, limit, windowMs, now)
  if (result.allowed) {
    remember(key, state.count)
    const ttl = Math.max(MIN_TTL_SECONDS, Math.ceil((start + windowMs - now) / 1000))
    defer(kv.put(key, String(state.count), { expirationTtl: ttl }).catch(() => undefined))
  }
  return result
}
