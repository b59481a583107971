// The rate limiter as the core uses it: one exact counter per key (fixed windows, token buckets,
// reservations and tokens given back). The Workers entry backs it with the RateLimiter Durable Object.

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

/** One key's counter, as the app calls it (RPC to the Durable Object on Workers). */
export interface LimiterStub {
  hit(limit: number, windowMs: number): Promise<WindowResult>
  take(capacity: number, refillMs: number): Promise<WindowResult>
  /** Gives back a token `take` took (the same capacity and refill). */
  refund(capacity: number, refillMs: number): Promise<void>
  reserve(limit: number, windowMs: number): Promise<Reservation>
  release(window: number): Promise<void>
}
