// Fixed-window counting as a pure function, shared by the Durable Object and the KV limiter.

export interface WindowState {
  start: number
  count: number
}

export interface WindowResult {
  allowed: boolean
  limit: number
  remaining: number
  /** Unix seconds at which the window resets. */
  reset: number
  /** Unix seconds from which a refused caller may try again, when earlier than `reset`. */
  retryAt?: number
}

/** A counted request that may be given back: `window` names the window it was counted in. */
export interface Reservation extends WindowResult {
  window?: number
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
