// Counters that hold a place for a request while it runs: the failure budgets (which keep only
// failures) and the budgets of sends (which keep only what was sent) share this one flow.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import type { Reservation } from '../ports/rate-limiter.ts'
import { giveBack, limiterFor, limiterUnavailable } from './limiter.ts'
import { refuse, report, tightest } from './rate-limit-response.ts'

/**
 * A refused request (4xx): judged and refused, so it sent nothing. A failure budget keeps exactly
 * these; a budget of sends keeps everything else. A 5xx reached no verdict, but a provider may
 * have been reached.
 */
export const isRefused = (status: number) => status >= 400 && status < 500

export interface Counter {
  key: string
  limit: number
  windowMs: number
}

/**
 * Reserves a place on every counter before the route runs, so requests in flight hold theirs and
 * concurrent ones cannot overshoot; refuses (429) when one is full, handing back the places the
 * others gave. After the route, the places stay when `keeps` says the answer counts, and are
 * given back otherwise. Both uses guard something costly (guesses, sends), so a counter that
 * cannot answer refuses the request (503) rather than let it through.
 */
export async function withReservedPlaces(
  c: Context<AppEnv>,
  counters: Counter[],
  keeps: (status: number) => boolean,
  next: () => Promise<void>,
): Promise<Response | void> {
  const stubs = counters.map(({ key }) => limiterFor(c.env, key))
  const settled = await Promise.allSettled(
    counters.map(({ limit, windowMs }, i) => stubs[i].reserve(limit, windowMs)),
  )
  const reserved = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined))
  const failed = settled.find((s) => s.status === 'rejected')
  if (failed) {
    await giveBack(stubs, reserved)
    throw limiterUnavailable(failed.reason)
  }
  const results = reserved as Reservation[]
  if (results.some((r) => !r.allowed)) {
    await giveBack(stubs, results)
    return refuse(c, results)
  }
  await next()
  if (keeps(c.res.status)) return report(c, tightest(results))
  await giveBack(stubs, results)
  report(c, tightest(results.map((r) => ({ ...r, remaining: r.remaining + 1 }))))
}
