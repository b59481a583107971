// The order of the home page's judges: the most followed first, then the registry's order. Kept
// in KV for an hour, since every filter combination is a page of its own and counting the
// followers of every platform for each would cost a scan of user_platforms per page.
import type { Db } from '../db/client.ts'
import { PLATFORMS, type Platform } from '../contests/schemas.ts'
import type { KeyValueStore } from '../ports/key-value.ts'
import { platformFollowerCounts } from '../users/queries.ts'

const KEY = 'home:judge-order'
const TTL_SECONDS = 3600

/** Every platform once: those with followers by their count, the rest in the registry's order. */
export function judgeOrder(counts: readonly { platform: string; followers: number }[]): Platform[] {
  const followers = new Map(counts.map((c) => [c.platform, c.followers]))
  // A stable sort keeps the registry's order among platforms with as many followers.
  return [...PLATFORMS].sort((a, b) => (followers.get(b) ?? 0) - (followers.get(a) ?? 0))
}

export async function homeJudges(db: Db, kv: KeyValueStore): Promise<Platform[]> {
  const stored = await kv.get(KEY)
  if (stored) {
    const order = stored.split(',').filter((p): p is Platform => PLATFORMS.includes(p as Platform))
    // A release that added a platform finds it missing from the stored order: count again.
    if (order.length === PLATFORMS.length) return order
  }
  const order = judgeOrder(await platformFollowerCounts(db))
  await kv.put(KEY, order.join(','), { expirationTtl: TTL_SECONDS })
  return order
}
