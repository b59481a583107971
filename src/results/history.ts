// A handle's rating history as its judge publishes it, with the judge's title and colour at each
// point, kept briefly in KV: a page that draws the chart again (or a friend's chart opened by
// several accounts) asks the judge once in 10 minutes, not on every view.
import type { KeyValueStore } from '../ports/key-value.ts'
import type { RatingPoint, ResultsRequest } from '../platforms/results.ts'
import type { ResultsJudge } from './judges.ts'
import { handleKey } from './handles.ts'
import { askJudge } from './upstream-answer.ts'

export const HISTORY_TTL_SECONDS = 600

// A history holds a point per rated contest: a few hundred for the most active accounts.
const historyKey = (platform: string, handle: string) =>
  `results:history:${platform}:${handleKey(handle)}`

export interface HandleHistory {
  points: (RatingPoint & { delta: number; title?: string; colour?: string })[]
  /** The newest rating and its title, or null before the handle's first rated contest. */
  current: { rating: number; title?: string; colour?: string } | null
}

/**
 * The judge's history of the handle, oldest first: from KV when asked within 10 minutes, else
 * from the judge (502 or 503 when it cannot be read, nothing kept then).
 */
export async function handleHistory(
  kv: KeyValueStore,
  judge: ResultsJudge,
  request: () => ResultsRequest,
  handle: string,
): Promise<HandleHistory> {
  const key = historyKey(judge.module.id, handle)
  let points = await kv.get<RatingPoint[]>(key, 'json')
  if (!points) {
    points = await askJudge(judge.module.name, () => judge.results.history(request(), handle))
    await kv.put(key, JSON.stringify(points), { expirationTtl: HISTORY_TTL_SECONDS })
  }
  const titled = (rating: number) => {
    const rank = judge.results.rank?.(rating)
    return rank ? { title: rank.title, colour: rank.colour } : {}
  }
  const last = points.at(-1)
  return {
    points: points.map((p) => ({ ...p, delta: p.newRating - p.oldRating, ...titled(p.newRating) })),
    current: last ? { rating: last.newRating, ...titled(last.newRating) } : null,
  }
}
