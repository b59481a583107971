// Fixed-window counting as a pure function, shared by the Durable Object and the KV limiter.
import type { WindowResult } from '../ports/rate-limiter.ts'

export interface WindowState {
  start: number
  count: number
}

export function consumeWindow(
  state: WindowState | undefined,
  limit: number,
  windowMs: number,
  now: number,
): { state: WindowState; result: WindowResult } {
  const current = state && now - state.start < windowMs ? state : { start: now, count: 0 }
  const allowed = current.count < limit
  const next = allowed ? { start: current.start, count: current.count + 1 } : current
  return {
    state: next,
    result: {
      allowed,
      limit,
      remaining: Math.max(0, limit - next.count),
      reset: Math.ceil((next.start + windowMs) / 1000),
    },
  }
}
