// The catalogue's hot queries, as the app builds them, use indexes (EXPLAIN QUERY PLAN).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { comingContestsQuery } from '../src/contests/coming.ts'
import {
  contestListQueries,
  listByPlatform,
  listFinished,
  listUpcoming,
  SEARCH_SQL,
} from '../src/contests/queries.ts'
import { ListQuery, PlatformListQuery } from '../src/contests/schemas.ts'
import { desc, gte } from 'drizzle-orm'
import { createDb } from '../src/db/client.ts'
import { notifications } from '../src/db/schema.ts'
import { idSecond } from '../src/lib/ids.ts'
import { selectNotifications } from '../src/notifications/contents.ts'
import {
  CLAIM_SQL,
  notificationStatusSql,
  RECORD_SQL,
} from '../src/notifications/delivery/delivery-store.ts'
import { FOLLOWERS_DUE_SQL, PLATFORM_DUE_SQL } from '../src/notifications/scheduling/reminders.ts'
import {
  INSERT_DELIVERIES_SQL,
  INSERT_NOTIFICATIONS_SQL,
} from '../src/notifications/scheduling/fan-out.ts'
import { PAGE_UNTOUCHED_SQL } from '../src/notifications/scheduling/page-resume.ts'
import { friendsSummariesSql, RESUME_SQL } from '../src/notifications/scheduling/results.ts'
import { REMINDED_SQL } from '../src/notifications/scheduling/reschedules.ts'
import { FOLLOWED_SQL } from '../src/communities/changes.ts'
import { EDITS_SQL } from '../src/notifications/delivery/edits.ts'

const db = createDb(env.DB)
const now = Date.now()
const HOUR_MS = 3_600_000

async function plan(query: { sql: string; params: unknown[] }): Promise<string> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .bind(...query.params)
    .all<{ detail: string }>()
  return results.map((r) => r.detail).join('\n')
}

describe('query plans', () => {
  it('upcoming walks the (is_active, start_time) index in order', async () => {
    const detail = await plan(listUpcoming(db, undefined, now).toSQL())
    expect(detail).toContain('USING INDEX contests_active_start')
    expect(detail).not.toContain('TEMP B-TREE')
  })

  it('finished walks the (is_active, end_time) index backwards', async () => {
    const detail = await plan(listFinished(db, undefined, now).toSQL())
    expect(detail).toContain('USING INDEX contests_active_end')
    expect(detail).not.toContain('TEMP B-TREE')
  })

  it('a platform list uses the (platform, start_time) index', async () => {
    const filters = PlatformListQuery.parse({})
    const detail = await plan(listByPlatform(db, 'codeforces', filters, now).toSQL())
    expect(detail).toContain('USING INDEX contests_platform_start')
    expect(detail).not.toContain('TEMP B-TREE')
  })

  it('search goes through the FTS5 index and joins contests by rowid', async () => {
    const detail = await plan({ sql: SEARCH_SQL, params: ['"round"*', 20] })
    expect(detail).toMatch(/VIRTUAL TABLE INDEX/)
    expect(detail).toMatch(/SEARCH c USING INTEGER PRIMARY KEY \(rowid=\?\)/)
  })

  it('the default page of GET /contests and its count use the (is_active, start_time) index', async () => {
    const queries = contestListQueries(db, ListQuery.parse({ limit: '100' }), now)
    expect(await plan(queries.page.toSQL())).toContain('USING INDEX contests_active_start')
    expect(await plan(queries.total.toSQL())).toMatch(/USING (COVERING )?INDEX contests_active_/)
  })

  it('the home page’s window, searched or not, walks a start_time index in order', async () => {
    const window = { until: now + 14 * 24 * HOUR_MS, limit: 200 }
    for (const filters of [window, { ...window, platforms: ['atcoder' as const], text: 'abc' }]) {
      const detail = await plan(comingContestsQuery(db, filters, now)!.toSQL())
      expect(detail).toMatch(/USING INDEX contests_(active|platform)_start/)
      expect(detail).not.toContain('TEMP B-TREE')
    }
  })

  // The reminder scheduler's recipient queries: six parameters, see reminders.ts.
  const dueParams = [
    'codeforces',
    '',
    30 * 60_000,
    JSON.stringify([['c1', HOUR_MS, '1:', ['cf'], 120, 'round']]),
    500,
    '~',
  ]

  it('the due followers of a platform are walked through (platform, user_id), no scan of users', async () => {
    const detail = await plan({ sql: PLATFORM_DUE_SQL, params: dueParams })
    expect(detail).toMatch(
      /SEARCH up USING (COVERING )?INDEX user_platforms_platform_user \(platform=\? AND user_id>\? AND user_id<\?\)/,
    )
    expect(detail).toMatch(/SEARCH u USING INDEX sqlite_autoindex_users_1 \(id=\?\)/)
    expect(detail).toMatch(/SEARCH n USING (COVERING )?INDEX notifications_dedupe/)
    expect(detail).not.toMatch(/SCAN (u|up|users)\b/)
    expect(detail).not.toContain('TEMP B-TREE')
  })

  it('a moved contest’s reminded users are walked in order through the contest-first dedupe key', async () => {
    const detail = await plan({ sql: REMINDED_SQL, params: ['c1', '1:', '', 500, HOUR_MS] })
    expect(detail).toMatch(
      /SEARCH n USING (COVERING )?INDEX notifications_dedupe \(contest_id=\? AND user_id>\?\)/,
    )
    // The index order is the ORDER BY, so LIMIT stops the walk at a page; DISTINCT's b-tree only
    // remembers the users already given.
    expect(detail).not.toContain('TEMP B-TREE FOR ORDER BY')
  })

  it('a fan-out page run again finds its reminders by the dedupe key and their deliveries by theirs', async () => {
    const detail = await plan({ sql: PAGE_UNTOUCHED_SQL, params: ['c1', '', '~', '1:'] })
    expect(detail).toMatch(
      /SEARCH n USING INDEX notifications_dedupe \(contest_id=\? AND user_id>\? AND user_id<\?\)/,
    )
    expect(detail).toMatch(
      /SEARCH d USING INDEX notification_deliveries_channel \(notification_id=\?\)/,
    )
  })

  it('a publication run again finds its alerts by the contest-first dedupe key and their deliveries by theirs', async () => {
    const detail = await plan({ sql: RESUME_SQL, params: ['c1', '[1]', now] })
    expect(detail).toMatch(/SEARCH n USING INDEX notifications_dedupe \(contest_id=\?\)/)
    expect(detail).toMatch(
      /SEARCH d USING INDEX notification_deliveries_channel \(notification_id=\?\)/,
    )
  })

  it('the friends’ summaries start from the accounts due, never from every handle of the platform', async () => {
    const params = ['c1', 'codeforces', 'k', 0, '0000000000', now, 'friends-results', 0, now]
    const detail = await plan({ sql: friendsSummariesSql(['email']), params })
    expect(detail).toMatch(
      /SEARCH h USING (COVERING )?INDEX judge_handles_user \(user_id=\? AND relation=\? AND platform=\?\)/,
    )
    expect(detail).not.toMatch(/INDEX judge_handles_platform_handle \(platform=\?\)\n/)
  })

  it('a page inserts group by group, each user and notification looked up by key', async () => {
    const params = ['[]', 0, '0000000000', 0, now, '[[0,["u1"]]]']
    const notified = await plan({ sql: INSERT_NOTIFICATIONS_SQL, params })
    const delivered = await plan({ sql: INSERT_DELIVERIES_SQL, params })
    expect(notified).toMatch(/SEARCH u USING INDEX sqlite_autoindex_users_1 \(id=\?\)/)
    expect(delivered).toMatch(
      /SEARCH n USING INDEX notifications_dedupe \(contest_id=\? AND user_id=\? AND content_id=\?\)/,
    )
    for (const detail of [notified, delivered]) {
      expect(detail).toMatch(/SCAN g\nSCAN p VIRTUAL TABLE/)
      expect(detail).not.toContain('TEMP B-TREE')
    }
  })

  it('the followers of one contest come from the (contest_id, mode, user_id) index', async () => {
    const detail = await plan({ sql: FOLLOWERS_DUE_SQL, params: dueParams })
    expect(detail).toMatch(/SEARCH cs USING (COVERING )?INDEX contest_subscriptions_contest_mode/)
    expect(detail).not.toMatch(/SCAN (u|cs|users)\b/)
  })

  it('the consumer claims, records and settles a batch by primary key, never through a status index', async () => {
    const ids = '(SELECT value ->> 0 AS id, value ->> 1 AS sent FROM json_each(?2))'
    const plans = [
      await plan({ sql: CLAIM_SQL, params: [now, now, '[]', '["PENDING"]'] }),
      await plan({ sql: RECORD_SQL, params: [now, '[]'] }),
      await plan({ sql: notificationStatusSql(ids), params: [now, '[]'] }),
    ]
    for (const detail of plans) {
      expect(detail).toMatch(
        /SEARCH \w+ USING (COVERING )?INDEX sqlite_autoindex_notification\w*_1 \(id=\?\)/,
      )
      expect(detail).not.toMatch(/_status|SCAN notification/)
    }
  })

  it('everyone’s history, newest first, walks the primary key backwards (no created_at index)', async () => {
    const query = selectNotifications(db)
      .where(gte(notifications.id, idSecond(now - 24 * HOUR_MS)))
      .orderBy(desc(notifications.id))
      .limit(20)
    const detail = await plan(query.toSQL())
    expect(detail).toMatch(/SEARCH notifications USING INDEX sqlite_autoindex_notifications_1/)
    expect(detail).not.toContain('TEMP B-TREE')
  })

  it('the announcements posted lately are walked through their partial sent_at index, newest first', async () => {
    const detail = await plan({ sql: FOLLOWED_SQL, params: [now - 14 * 24 * HOUR_MS] })
    expect(detail).toMatch(/SEARCH a USING INDEX community_announcements_posted \(sent_at>\?\)/)
    // Each message's edits by the unique key (a message has a few; their sort is the only one).
    expect(detail).toMatch(/SEARCH x USING INDEX community_message_changes_once/)
    expect(detail).not.toMatch(/SCAN (a|d|x)\b/)
  })

  it('a moved contest’s reminders to edit are found by the contest-first dedupe key', async () => {
    const detail = await plan({ sql: EDITS_SQL, params: ['c1', 'start:1', 1, now] })
    expect(detail).toMatch(
      /SEARCH n USING (COVERING )?INDEX notifications_dedupe \(contest_id=\?\)/,
    )
    expect(detail).toMatch(/SEARCH d USING INDEX notification_deliveries_channel/)
    expect(detail).not.toMatch(/SCAN (n|d)\b/)
  })
})
