// Failure budgets: how many wrong passwords or codes an account may be sent. Two counters per
// account: a tight one per (account, client address), the one a guesser meets, and a loose one
// per account from every address, which bounds a guesser who has many. A stranger must spend the
// loose one, from many addresses, before the owner's own attempts are refused.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/time.ts'
import { clientIp } from './client-address.ts'
import { limitsDisabled } from './limiter.ts'
import { bodyEmail, webSessionUser } from './rate-limit.ts'
import { isRefused, withReservedPlaces } from './reserved-places.ts'

interface Budget {
  limit: number
  windowMs: number
}

export interface FailureBudget {
  /** Part of every counter key; routes sharing a budget share its counters. */
  name: string
  perClient: Budget
  perAccount: Budget
}

const budget = (name: string, perClient: Budget, perAccount: Budget): FailureBudget => ({
  name,
  perClient,
  perAccount,
})

export const FAILURE_BUDGETS = {
  // A guesser gets 5 passwords per 15 minutes per address and 100 an hour per account (2,400 a
  // day); refusing the owner takes 100 failures an hour from at least 5 addresses.
  signin: budget(
    'signin-failures',
    { limit: 5, windowMs: 15 * MINUTE_MS },
    { limit: 100, windowMs: HOUR_MS },
  ),
  // Across codes, since each new code brings 3 fresh attempts: 20 wrong codes a day per account
  // leave a guesser at most a 1-in-50,000 chance a day; refusing the owner takes 4 addresses.
  codeCheck: budget(
    'code-failures',
    { limit: 5, windowMs: DAY_MS },
    { limit: 20, windowMs: DAY_MS },
  ),
} satisfies Record<string, FailureBudget>

/** The account a request's guess is aimed at, as a counter key; undefined when it names none. */
export type AccountOf = (c: Context<AppEnv>) => Promise<string | undefined>

/**
 * The signed-in user, for checks that name no email: the access token's (after requireUser or
 * requireSession) or the web app's session, so a page and the API spend one budget.
 */
export const signedInAccount: AccountOf = async (c) => {
  const userId = c.get('auth')?.sub ?? (await webSessionUser(c))?.userId
  return userId ? `user:${userId}` : undefined
}

/**
 * Judged and refused (wrong password or code, unknown account, invalid input): a failure. A 2xx
 * is a success; a 5xx reached no verdict the client could learn from, so neither counts.
 */
const isFailure = isRefused

/**
 * Counts the route's failures against `budget` for the account `accountOf` names (by default the
 * body's email). Each request reserves a place on both counters before it runs and gives it back
 * when it did not fail, so only failures count, and exactly so under concurrency: requests in
 * flight already hold their places, and a correct guess cannot overtake the limit.
 */
export function failureBudget(
  budget: FailureBudget,
  accountOf: AccountOf = bodyEmail,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (limitsDisabled(c.env)) return next()
    const account = await accountOf(c)
    // No account named: the validator refuses the body, and the per-address rule counted it.
    if (!account) return next()
    const counters = [
      { key: `${budget.name}:subject-client:${account}:${clientIp(c)}`, ...budget.perClient },
      { key: `${budget.name}:subject:${account}`, ...budget.perAccount },
    ]
    return withReservedPlaces(c, counters, isFailure, next)
  }
}
