// The rate-limiter Durable Object: exact fixed-window counters kept in its SQLite storage.
import { DurableObject } from 'cloudflare:workers'
import { consumeWindow, type WindowResult } from './window.ts'

export class RateLimiter extends DurableObject {
  /** Counts one request against `limit` per `windowMs`; one object serves one key, serially. */
  hit(limit: number, windowMs: number, now: number = Date.now()): WindowResult {
    const sql = this.ctx.storage.sql
    sql.exec('CREATE TABLE IF NOT EXISTS window (start INTEGER NOT NULL, count INTEGER NOT NULL)')
    const row = sql.exec<{ start: number; count: number }>('SELECT start, count FROM window').toArray()[0]
    const { state, result } = consumeWindow(row, limit, windowMs, now)
    sql.exec('DELETE FROM window')
    sql.exec('INSERT INTO window (start, count) VALUES (?, ?)', state.start, state.count)
    return result
  }
}
