// The admin statistics: platform-wide counts from D1 and the resource count of the intelligence
// service, which is reported as unknown (not as a failure of the whole answer) when it is down.
import type { Db } from '../db/client.ts'
import { DAY_MS } from '../lib/time.ts'
import { conversationCountStatements } from '../resources/conversations.ts'
import { userCountStatements } from '../users/admin-queries.ts'

export async function adminStats(
  db: Db,
  countResources: () => Promise<number | undefined>,
  now: number,
) {
  const [users, recent] = userCountStatements(db, now - DAY_MS)
  // The service is asked while D1 counts, so the slower of the two sets the latency.
  const [counts, resources] = await Promise.all([
    db.batch([users, recent, ...conversationCountStatements(db)]),
    countResources(),
  ])
  const [totalUsers, activeToday, totalConversations, totalMessages] = counts.map(([r]) => r.n)
  return {
    total_users: totalUsers,
    active_today: activeToday,
    total_conversations: totalConversations,
    total_messages: totalMessages,
    total_resources: resources ?? null,
    intelligence_available: resources !== undefined,
  }
}
