// How fast the bots may post, kept in the RateLimiter Durable Object so every isolate shares it:
// Telegram allows 20 messages a minute in one group (its 30 a second per bot are the Telegram
// channel's own pace, which every send takes); Discord 50 requests a second per bot (its 429s are
// honoured besides, with their retry_after).
import type { CommunityDestinationRow } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { limiterFor, limitsDisabled } from '../http/limiter.ts'
import { MINUTE_MS } from '../lib/time.ts'

const SECOND_MS = 1000

function budgets(d: CommunityDestinationRow): [string, number, number][] {
  if (d.channel === 'telegram') {
    return [[`pace:telegram:${d.chatId}`, 20, MINUTE_MS]]
  }
  return [['pace:discord', 50, SECOND_MS]]
}

/** Seconds to wait before posting to `d`, 0 when it may post now (and it is counted). */
export async function paceWait(env: Env, d: CommunityDestinationRow, now: number) {
  if (limitsDisabled(env)) return 0
  let wait = 0
  for (const [key, limit, windowMs] of budgets(d)) {
    const counted = await limiterFor(env, key).hit(limit, windowMs)
    if (!counted.allowed) {
      const at = counted.retryAt ?? counted.reset
      wait = Math.max(wait, Math.max(1, Math.ceil(at - now / 1000)))
    }
  }
  return wait
}
