// The rate-limiter Durable Object: exact fixed-window counters and token buckets kept in its
// SQLite storage. One object serves one key, so in practice it holds one window or one bucket.
import { DurableObject } from 'cloudflare:workers'
import { bucketFullAt, refundToken, takeToken, type BucketState } from './token-bucket.ts'
import type { Reservation, WindowResult } from '../ports/rate-limiter.ts'
import { consumeWindow } from './window.ts'

interface WindowRow extends Record<string, SqlStorageValue> {
  start: number
  count: number
  window_ms: number
}

interface BucketRow extends Record<string, SqlStorageValue> {
  credit_ms: number
  updated_at: number
  capacity: number
  refill_ms: number
}

export class RateLimiter extends DurableObject {
  /** Counts one request against `limit` per `windowMs`; one object serves one key, serially. */
  async hit(limit: number, windowMs: number, now: number = Date.now()): Promise<WindowResult> {
    return (await this.count(limit, windowMs, now)).result
  }

  /**
   * Counts one request like `hit` and says which window holds it, so `release` can take it back.
   * Reserving before the work and releasing after keeps the count exact under concurrency: a
   * request in flight already holds its place.
   */
  async reserve(limit: number, windowMs: number, now: number = Date.now()): Promise<Reservation> {
    const { state, result } = await this.count(limit, windowMs, now)
    return result.allowed ? { ...result, window: state.start } : result
  }

  /** Gives back a reservation, unless its window has ended (the new one never counted it). */
  async release(window: number): Promise<void> {
    const row = this.windowRow()
    if (row?.start !== window || row.count <= 0) return
    this.ctx.storage.sql.exec('UPDATE fixed_window SET count = count - 1')
  }

  /**
   * Takes one token of a bucket of `capacity` tokens, refilled by one every `refillMs`. `now` is
   * a parameter so tests can step the clock; the app leaves it to the object's own clock.
   */
  async take(capacity: number, refillMs: number, now: number = Date.now()): Promise<WindowResult> {
    const sql = this.ctx.storage.sql
    const row = this.bucketRow()
    const before = row && bucketState(row)
    const { state, result } = takeToken(before, capacity, refillMs, now)
    sql.exec('DELETE FROM token_bucket')
    sql.exec(
      'INSERT INTO token_bucket (credit_ms, updated_at, capacity, refill_ms) VALUES (?, ?, ?, ?)',
      state.creditMs,
      state.updatedAt,
      capacity,
      refillMs,
    )
    // A full bucket is the same as no bucket, so storage is freed once it has refilled.
    await this.ctx.storage.setAlarm(bucketFullAt(state, capacity, refillMs))
    return result
  }

  /** Gives back a token `take` took; nothing when the bucket is gone (full, its storage freed). */
  async refund(capacity: number, refillMs: number): Promise<void> {
    const row = this.bucketRow()
    if (!row) return
    const state = refundToken(bucketState(row), capacity, refillMs)
    this.ctx.storage.sql.exec('UPDATE token_bucket SET credit_ms = ?', state.creditMs)
  }

  override async alarm(): Promise<void> {
    const window = this.windowRow()
    const bucket = this.bucketRow()
    const keepUntil = Math.max(
      window ? window.start + window.window_ms : 0,
      bucket ? bucketFullAt(bucketState(bucket), bucket.capacity, bucket.refill_ms) : 0,
    )
    if (keepUntil > Date.now()) {
      await this.ctx.storage.setAlarm(keepUntil)
      return
    }
    await this.ctx.storage.deleteAll()
  }

  private async count(limit: number, windowMs: number, now: number) {
    const sql = this.ctx.storage.sql
    const row = this.windowRow()
    const counted = consumeWindow(row, limit, windowMs, now)
    const { state } = counted
    sql.exec('DELETE FROM fixed_window')
    sql.exec(
      'INSERT INTO fixed_window (start, count, window_ms) VALUES (?, ?, ?)',
      state.start,
      state.count,
      windowMs,
    )
    // Most keys (an IP, an email) are seen once; the alarm frees storage when the window ends.
    if (!row || row.start !== state.start) await this.ctx.storage.setAlarm(state.start + windowMs)
    return counted
  }

  private windowRow(): WindowRow | undefined {
    const sql = this.ctx.storage.sql
    sql.exec(
      `CREATE TABLE IF NOT EXISTS fixed_window
        (start INTEGER NOT NULL, count INTEGER NOT NULL, window_ms INTEGER NOT NULL)`,
    )
    return sql.exec<WindowRow>('SELECT start, count, window_ms FROM fixed_window').toArray()[0]
  }

  private bucketRow(): BucketRow | undefined {
    const sql = this.ctx.storage.sql
    sql.exec(
      `CREATE TABLE IF NOT EXISTS token_bucket (credit_ms INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, capacity INTEGER NOT NULL, refill_ms INTEGER NOT NULL)`,
    )
    return sql
      .exec<BucketRow>('SELECT credit_ms, updated_at, capacity, refill_ms FROM token_bucket')
      .toArray()[0]
  }
}

const bucketState = (row: BucketRow): BucketState => ({
  creditMs: row.credit_ms,
  updatedAt: row.updated_at,
})
