// The rate-limiter Durable Object: exact fixed-window counters kept in its SQLite storage.
import { DurableObject } from 'cloudflare:workers'
import { consumeWindow, type WindowResult } from './window.ts'

interface WindowRow extends Record<string, SqlStorageValue> {
  start: number
  count: number
  window_ms: number
}

export class RateLimiter extends DurableObject {
  /** Counts one request against `limit` per `windowMs`; one object serves one key, serially. */
  async hit(limit: number, windowMs: number, now: number = Date.now()): Promise<WindowResult> {
    const sql = this.ctx.storage.sql
    sql.exec(
      `CREATE TABLE IF NOT EXISTS fixed_window
        (start INTEGER NOT NULL, count INTEGER NOT NULL, window_ms INTEGER NOT NULL)`,
    )
    const row = sql.exec<WindowRow>('SELECT start, count, window_ms FROM fixed_window').toArray()[0]
    const { state, result } = consumeWindow(row, limit, windowMs, now)
    sql.exec('DELETE FROM fixed_window')
    sql.exec(
      'INSERT INTO fixed_window (start, count, window_ms) VALUES (?, ?, ?)',
      state.start,
      state.count,
      windowMs,
    )
    // Most keys (an IP, an email) are seen once; the alarm frees storage when the window ends.
    if (!row || row.start !== state.start) await this.ctx.storage.setAlarm(state.start + windowMs)
    return result
  }

  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql
    const row = sql.exec<WindowRow>('SELECT start, count, window_ms FROM fixed_window').toArray()[0]
    if (row && row.start + row.window_ms > Date.now()) {
      await this.ctx.storage.setAlarm(row.start + row.window_ms)
      return
    }
    await this.ctx.storage.deleteAll()
  }
}
