// The bot's pace over all its chats: Telegram takes about 30 messages a second from one bot, so
// each send (a person's reminder, a group's announcement) first takes a slot of one counter in the
// RateLimiter Durable Object, shared by every isolate, waiting for the next second when the slots
// are spent. A send that cannot get one within a few seconds is told how long to wait instead.
import type { Env } from '../../env.ts'
import { limiterFor, limitsDisabled, logLimiterFailure } from '../../http/limiter.ts'

const PER_SECOND = 30
const SECOND_MS = 1000
// A queue message of 100 sends waits about 3 seconds at most; longer and it is retried later.
const MAX_WAIT_MS = 5_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Undefined once the send may go; otherwise the seconds to wait before trying again. */
export async function telegramSlot(env: Env): Promise<number | undefined> {
  if (limitsDisabled(env)) return undefined
  const started = Date.now()
  for (;;) {
    let slot
    try {
      slot = await limiterFor(env, 'pace:telegram').hit(PER_SECOND, SECOND_MS)
    } catch (error) {
      // Without the counter the send goes: Telegram's own 429 and retry_after still hold it back.
      logLimiterFailure(error)
      return undefined
    }
    if (slot.allowed) return undefined
    const wait = Math.max(50, (slot.retryAt ?? slot.reset) * 1000 - Date.now())
    if (Date.now() - started + wait > MAX_WAIT_MS) return Math.ceil(wait / 1000)
    await sleep(wait)
  }
}
