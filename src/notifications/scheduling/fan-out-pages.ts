// A large audience is not reminded inside the cron run: the run cuts the platform's followers into
// pages and queues one message per (contest, page), so consumers make the pages' reminders side by
// side and the run ends in seconds whatever the audience.
import type { ContestRow } from '../../db/schema.ts'
import { addToGroup } from '../../lib/group.ts'
import type { QueueProducer } from '../../ports/queue.ts'

/** Followers per page: a page's reminders are made by one consumer invocation in about a second. */
export const FAN_OUT_PAGE = 5_000
// Queues take at most 100 messages a sendBatch call.
const MESSAGES_PER_SEND = 100
/** Above every user id (lowercase hex): the open end of the last page of a walk. */
export const LAST_USER_ID = '~'

export interface FanOutPage {
  contestId: string
  /** The start the pages were cut for: a contest moved since is left to the next run. */
  startTime: number
  /** Followers with ids above this ('' for the first page)... */
  after: string
  /** ...up to and including this one (null for the last page). */
  through: string | null
}

/** The body of a fan-out message on the notifications queue. */
export interface FanOutMessage {
  fanOut: FanOutPage
}

const ID = /^[0-9a-f]{24}$/
const userId = (v: unknown) => typeof v === 'string' && v.length <= 64

/** The page a message asks for, or undefined when it is no fan-out message. */
export function fanOutOf(body: unknown): FanOutPage | undefined {
  const page = (body as Partial<FanOutMessage> | null)?.fanOut
  if (!page || typeof page !== 'object') return undefined
  const { contestId, startTime, after, through } = page
  if (typeof contestId !== 'string' || !ID.test(contestId)) return undefined
  if (typeof startTime !== 'number' || !Number.isSafeInteger(startTime)) return undefined
  if (!userId(after) || (through !== null && !userId(through))) return undefined
  return { contestId, startTime, after, through }
}

/** A contest whose platform followers go to queued pages, and the ends of those pages. */
export interface FanOutContest {
  contest: Pick<ContestRow, 'id' | 'startTime'>
  ends: readonly string[]
}

/**
 * One message per page of each contest (the last page of each is open); returns how many.
 * Contests whose pages have the same ends (a platform's, cut once a run) go out range by range,
 * each range for all of them in turn, so a consumer's batch tends to hold one range for several
 * contests and walks it once for all (reminders.ts). Only speed depends on that order.
 */
export async function enqueueFanOutPages(queue: QueueProducer, fanOuts: readonly FanOutContest[]) {
  const sameEnds = new Map<string, FanOutContest[]>()
  for (const fanOut of fanOuts) {
    addToGroup(sameEnds, fanOut.ends.join('\n'), fanOut)
  }
  const messages = [...sameEnds.values()].flatMap((same) => {
    const ends = same[0].ends
    return ['', ...ends].flatMap((after, i) =>
      same.map(({ contest }) => ({
        body: {
          fanOut: {
            contestId: contest.id,
            startTime: contest.startTime,
            after,
            through: ends[i] ?? null,
          },
        } satisfies FanOutMessage,
      })),
    )
  })
  for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND) {
    await queue.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND))
  }
  return messages.length
}
