// Approximate fixed windows in KV, for anonymous per-address limits where a Durable Object round
// trip per request would cost more than the limit is worth. Each isolate counts in memory and
// shares its count through KV only now and then: it reads a window's key at most once a minute
// (after answering, so no request waits for KV) and writes it at most once every five minutes, or
// at once when the count reaches the limit. A steady public read so costs no KV write (KV bills
// writes per million and takes about one a second per key), one client hammering one location is
// refused by its isolate's own count, and other isolates learn of an exhausted window within a
// minute of its write.
import type { KeyValueStore } from '../ports/key-value.ts'
import type { WindowResult } from '../ports/rate-limiter.ts'
import { consumeWindow } from './window.ts'

const KEY_PREFIX = 'rl:'
// KV refuses expirations shorter than 60 seconds.
const MIN_TTL_SECONDS = 60
/** How long a count read from KV is trusted before it is read again. */
export const READ_EVERY_MS = 60_000
/** The longest a count waits in memory before it is written (unless it reaches the limit). */
export const WRITE_EVERY_MS = 5 * 60_000
const MAX_TALLIES = 10_000

interface Tally {
  start: number
  end: number
  /** The count KV held when last read, or this isolate last wrote. */
  shared: number
  /** Requests counted here since this isolate last wrote. */
  pending: number
  readAt: number
  writtenAt: number
}

const tallies = new Map<string, Tally>()

/** Room for one more: windows that ended go first, then the oldest (its unwritten count is lost). */
function makeRoom(now: number) {
  if (tallies.size < MAX_TALLIES) return
  for (const [key, t] of tallies) if (t.end <= now) tallies.delete(key)
  if (tallies.size >= MAX_TALLIES) tallies.delete(tallies.keys().next().value!)
}

/**
 * The window of `name` that `now` falls in: its key and its tally, with KV's count read when the
 * tally's is over a minute old. With `defer` the read goes on after the answer (a request never
 * waits for KV, and a count elsewhere is seen from the next request on); without, it is awaited.
 */
async function currentTally(
  kv: KeyValueStore,
  name: string,
  windowMs: number,
  now: number,
  defer?: (work: Promise<unknown>) => void,
) {
  const start = Math.floor(now / windowMs) * windowMs
  const key = `${KEY_PREFIX}${name}:${start}`
  let tally = tallies.get(key)
  if (!tally) {
    makeRoom(now)
    tally = {
      start,
      end: start + windowMs,
      shared: 0,
      pending: 0,
      readAt: -Infinity,
      writtenAt: now,
    }
    tallies.set(key, tally)
  }
  if (now - tally.readAt >= READ_EVERY_MS) {
    const t = tally
    t.readAt = now
    const read = kv.get(key).then(
      (stored) => void (t.shared = Math.max(t.shared, Number(stored) || 0)),
      () => undefined,
    )
    if (defer) defer(read)
    else await read
  }
  return { key, tally }
}

const countOf = (t: Tally) => t.shared + t.pending

/** Whether the window of `name` would still allow a request, without counting one. */
export async function peekKvWindow(
  kv: KeyValueStore,
  name: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<WindowResult> {
  const { tally } = await currentTally(kv, name, windowMs, now)
  const count = countOf(tally)
  const { result } = consumeWindow({ start: tally.start, count }, limit, windowMs, now)
  return { ...result, remaining: Math.max(0, limit - count) }
}

/**
 * Counts one request for `name` against `limit` per `windowMs`. Windows are aligned to multiples
 * of `windowMs`, so each window is its own key and expires on its own. A write is handed to
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
  const { key, tally } = await currentTally(kv, name, windowMs, now, defer)
  const { result } = consumeWindow(
    { start: tally.start, count: countOf(tally) },
    limit,
    windowMs,
    now,
  )
  if (!result.allowed) return result
  tally.pending++
  if (countOf(tally) >= limit || now - tally.writtenAt >= WRITE_EVERY_MS) {
    tally.shared = countOf(tally)
    tally.pending = 0
    tally.writtenAt = now
    const ttl = Math.max(MIN_TTL_SECONDS, Math.ceil((tally.end - now) / 1000))
    defer(kv.put(key, String(tally.shared), { expirationTtl: ttl }).catch(() => undefined))
  }
  return result
}
