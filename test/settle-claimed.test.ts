// The end of a queue message's attempt at the row it claimed (src/lib/settle-claimed.ts), which
// announcements, rank posts, message changes, events and reminder edits share: a transient failure
// with retries left is held until its wait is over (a 429's own wait, else the policy's), one that
// never gets better or has used its retries is FAILED, and a message that found the row held comes
// back when the hold ends, 1 s to 12 h later.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { NOTIFICATION_RETRY_DELAYS_SECONDS, MAX_RETRIES } from '../src/lib/retry-policy.ts'
import {
  failGivenUp,
  MAX_DELAY_SECONDS,
  settleClaimed,
  unclaimed,
  type RecordFailure,
} from '../src/lib/settle-claimed.ts'

/** The row's record: what settleClaimed wrote, in order. */
function recorder() {
  const written: Parameters<RecordFailure>[] = []
  const record: RecordFailure = async (...args) => {
    written.push(args)
  }
  return { written, record }
}

describe('settleClaimed', () => {
  it('holds a transient failure with retries left for the policy’s delay, counted from the answer', async () => {
    const { written, record } = recorder()
    const now = Date.now()
    const calledAt = Date.now()
    const outcome = await settleClaimed(
      { error: 'Telegram answered 502', transient: true },
      { retryCount: 1, calledAt },
      record,
      now,
    )
    const delay = NOTIFICATION_RETRY_DELAYS_SECONDS[1]
    expect(outcome).toEqual({ done: false, delaySeconds: delay })
    expect(written).toHaveLength(1)
    const [status, result] = written[0]!
    expect(status).toBe('RETRYING')
    expect(result).toMatchObject({ error: 'Telegram answered 502', retried: true })
    expect(result.heldUntil).toBeGreaterThanOrEqual(now + delay * 1000)
    expect(result.heldUntil).toBeLessThanOrEqual(Date.now() - calledAt + now + delay * 1000)
  })

  it('waits exactly a 429’s retry_after instead of the policy’s delay', async () => {
    const { written, record } = recorder()
    const now = Date.now()
    const outcome = await settleClaimed(
      { error: 'Telegram answered 429', transient: true, retryAfterSeconds: 3 },
      { retryCount: 0, calledAt: now },
      record,
      now,
    )
    expect(outcome).toEqual({ done: false, delaySeconds: 3 })
    expect(written[0]![1].heldUntil).toBeGreaterThanOrEqual(now + 3000)
  })

  it('fails for good a failure that never gets better, and one whose retries are used up', async () => {
    for (const [transient, retryCount] of [
      [false, 0],
      [true, MAX_RETRIES],
    ] as const) {
      const { written, record } = recorder()
      const outcome = await settleClaimed(
        { error: 'Discord answered 403', transient, retryAfterSeconds: 5 },
        { retryCount, calledAt: Date.now() },
        record,
        Date.now(),
      )
      expect(outcome).toEqual({ done: true })
      expect(written).toEqual([['FAILED', { error: 'Discord answered 403' }]])
    }
  })
})

describe('unclaimed', () => {
  // The owner's SELECT of a held row, as a real D1 statement: a row while ?2 says it is held.
  const held = (claimedUntil: number, isHeld: boolean) =>
    env.DB.prepare('SELECT ?1 AS claimedUntil WHERE ?2 = 1').bind(claimedUntil, isHeld ? 1 : 0)

  it('is done when the row is not held for a next attempt', async () => {
    expect(await unclaimed(held(0, false), Date.now())).toEqual({ done: true })
  })

  it('comes back when the hold is over, at least 1 s and at most 12 h later', async () => {
    const now = Date.now()
    expect(await unclaimed(held(now + 2500, true), now)).toEqual({
      done: false,
      waiting: true,
      delaySeconds: 3,
    })
    expect(await unclaimed(held(now, true), now)).toMatchObject({ delaySeconds: 1 })
    expect(await unclaimed(held(now + 48 * 3_600_000, true), now)).toMatchObject({
      delaySeconds: MAX_DELAY_SECONDS,
    })
  })
})

describe('failGivenUp', () => {
  it('runs no statement for no rows', async () => {
    // A statement that fails when run: resolving shows it was not.
    const broken = env.DB.prepare('UPDATE no_such_table SET x = 1 WHERE id IN (?2) OR ?1')
    await expect(failGivenUp(broken, [], Date.now())).resolves.toBeUndefined()
    await expect(failGivenUp(broken, ['a'], Date.now())).rejects.toThrow(/no_such_table/)
  })
})
