// Discord scheduled events of a channel subscription with events on: each contest it announces
// becomes one external event of the server (its page as the location, its start and end), made
// once however scheduler runs and queue messages race, moved when the contest moves, deleted when
// it is cancelled; a 429 is waited out as a post is; without Manage Events (50013) the channel is
// told once, the events stop and the announcements go on.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { findDestination, subscribe } from '../src/communities/destinations.ts'
import { scheduleEvents, sendEventChange } from '../src/communities/events.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { addContests, contest } from './helpers/contests.ts'
import { consume, resetNotifications, runScheduler, testEnv } from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'

const DISCORD = {
  DISCORD_BOT_TOKEN: 'stand-in-discord-bot-token',
  DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
} satisfies Partial<Env>
const GUILD = '1100000000000000501'
const CHANNEL = '1200000000000000501'
const EVENTS_PATH = `/discord/api/v10/guilds/${GUILD}/scheduled-events`
const POSTS_PATH = `/discord/api/v10/channels/${CHANNEL}/messages`
const HOUR = 3_600_000

const db = () => createDb(env.DB)
const place = { channel: 'discord' as const, chatId: CHANNEL, guildId: GUILD, title: '#contests' }

beforeEach(async () => {
  await resetNotifications()
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

/** Runs every message the app queued, once each, until none is left (or `rounds` run out). */
async function deliverAll(e: ReturnType<typeof testEnv>, rounds = 3) {
  for (let i = 0; i < rounds; i++) {
    const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    e.NOTIFICATIONS_QUEUE.delays.splice(0)
    if (bodies.length === 0) return
    await consume(
      e,
      bodies.map((body) => ({ body, attempts: 1 })),
    )
  }
}

const calls = async (method: string) =>
  (await standIn.requests(EVENTS_PATH)).filter((r) => r.method === method)

const eventRows = async () =>
  (
    await env.DB.prepare(
      `SELECT status, event_id AS eventId, start_time AS startTime, end_time AS endTime,
        deleted_at AS deletedAt, error FROM community_events ORDER BY created_at`,
    ).all<Record<string, unknown>>()
  ).results

describe('a channel with events on', () => {
  it('makes one external event per contest, moves it with the contest and deletes it when cancelled', async () => {
    const e = testEnv(DISCORD)
    await subscribe(db(), place, { platforms: ['codeforces'], events: true }, Date.now())
    const [round] = await addContests([
      contest(0.75, {
        name: 'Codeforces Round 999 (Div. 2)',
        websiteUrl: 'https://codeforces.com/contests/2150',
      }),
    ])
    // Two scheduler runs at once, then the queue's messages (the announcement and the event).
    await Promise.all([runScheduler(e), runScheduler(e)])
    await deliverAll(e)

    const [made] = await calls('POST')
    expect(made.headers.authorization).toBe('Bot stand-in-discord-bot-token')
    expect(JSON.parse(made.body)).toEqual({
      name: 'Codeforces Round 999 (Div. 2)',
      description: 'Codeforces · 2 h\nhttps://codeforces.com/contests/2150',
      scheduled_start_time: new Date(round.startTime).toISOString(),
      scheduled_end_time: new Date(round.endTime).toISOString(),
      entity_type: 3,
      entity_metadata: { location: 'https://codeforces.com/contests/2150' },
      privacy_level: 2,
    })
    expect(made.status).toBe(200)
    const [row] = await eventRows()
    expect(row).toMatchObject({ status: 'DONE', startTime: round.startTime, deletedAt: null })
    expect(row.eventId).toMatch(/^\d{17,20}$/)
    // The announcement went out as well.
    expect(await standIn.requests(POSTS_PATH)).toHaveLength(1)

    // Another run, and the same message delivered again: no second event.
    await runScheduler(e)
    await deliverAll(e)
    const [{ id }] = (await env.DB.prepare('SELECT id FROM community_events').all<{ id: string }>())
      .results
    await consume(e, [{ body: { communityEventId: id }, attempts: 1 }])
    expect(await calls('POST')).toHaveLength(1)
    expect(await calls('PATCH')).toHaveLength(0)

    // The contest moves an hour later: the event follows, once.
    const later = { start: round.startTime + HOUR, end: round.endTime + HOUR }
    await env.DB.prepare('UPDATE contests SET start_time = ?1, end_time = ?2 WHERE id = ?3')
      .bind(later.start, later.end, round.id)
      .run()
    await Promise.all([runScheduler(e), runScheduler(e)])
    await deliverAll(e)
    await runScheduler(e)
    await deliverAll(e)
    const patches = await calls('PATCH')
    expect(patches).toHaveLength(1)
    expect(patches[0].path).toBe(`${EVENTS_PATH}/${row.eventId}`)
    expect(JSON.parse(patches[0].body)).toEqual({
      scheduled_start_time: new Date(later.start).toISOString(),
      scheduled_end_time: new Date(later.end).toISOString(),
    })
    expect(patches[0].status).toBe(200)
    expect((await eventRows())[0]).toMatchObject({ status: 'DONE', startTime: later.start })

    // Cancelled: the event is deleted, once, and Discord no longer lists it.
    await env.DB.prepare('UPDATE contests SET is_active = 0 WHERE id = ?1').bind(round.id).run()
    await runScheduler(e)
    await deliverAll(e)
    await runScheduler(e)
    await deliverAll(e)
    const deletes = await calls('DELETE')
    expect(deletes.map((r) => [r.path, r.status])).toEqual([[`${EVENTS_PATH}/${row.eventId}`, 204]])
    const listed = await fetch(`${standInUrl}${EVENTS_PATH}`, {
      headers: { Authorization: 'Bot stand-in-discord-bot-token' },
    })
    expect(await listed.json()).toEqual([])
    expect((await eventRows())[0].deletedAt).not.toBe(null)
  })

  it('makes no event where events are off', async () => {
    const e = testEnv(DISCORD)
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    await addContests([contest(0.75)])
    await runScheduler(e)
    await deliverAll(e)
    expect(await standIn.requests(POSTS_PATH)).toHaveLength(1)
    expect(await calls('POST')).toEqual([])
    expect(await eventRows()).toEqual([])
  })

  it('waits out a 429’s retry_after: a duplicate message makes nothing, the retry makes one event', async () => {
    const e = testEnv(DISCORD)
    await subscribe(db(), place, { platforms: ['codeforces'], events: true }, Date.now())
    await addContests([contest(0.75)])
    await standIn.script({
      method: 'POST',
      pathPrefix: EVENTS_PATH,
      responses: [
        {
          status: 429,
          headers: { 'Retry-After': '3' },
          body: { message: 'You are being rate limited.', retry_after: 2.5, global: false },
        },
        // Then Discord's own answer (an empty script rule would repeat the 429).
        { status: 200, body: { id: '1500000000000000001', guild_id: GUILD } },
      ],
    })
    const now = Date.now()
    await scheduleEvents({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, now)
    // No announcement row yet: nothing to make.
    expect(await eventRows()).toEqual([])
    await runScheduler(e)
    const queued = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    const eventMessage = queued.find((b) => 'communityEventId' in (b as object))!
    const [first] = await consume(e, [{ body: eventMessage, attempts: 1 }])
    expect(first).toMatchObject({ retried: true, delaySeconds: 3 })
    const [duplicate] = await consume(e, [{ body: eventMessage, attempts: 1 }])
    expect(duplicate).toMatchObject({ acked: true, retried: false })
    expect(await calls('POST')).toHaveLength(1)
    expect((await eventRows())[0]).toMatchObject({ status: 'RETRYING' })

    const deps = { env: e, db: db(), d1: env.DB }
    const { communityEventId } = eventMessage as unknown as { communityEventId: string }
    const after = Date.now() + 3_500
    expect(await sendEventChange(deps, communityEventId, after)).toEqual({ done: true })
    expect(await sendEventChange(deps, communityEventId, after + 10)).toEqual({ done: true })
    expect(await calls('POST')).toHaveLength(2)
    expect((await eventRows())[0]).toMatchObject({
      status: 'DONE',
      eventId: '1500000000000000001',
    })
  })

  it('without Manage Events, tells the channel once, stops the events and goes on posting', async () => {
    const e = testEnv(DISCORD)
    await subscribe(db(), place, { platforms: ['codeforces'], events: true }, Date.now())
    await standIn.script({
      method: 'POST',
      pathPrefix: EVENTS_PATH,
      responses: [{ status: 403, body: { message: 'Missing Permissions', code: 50013 } }],
    })
    await addContests([contest(0.75), contest(0.8)])
    await runScheduler(e)
    await deliverAll(e)
    await addContests([contest(0.85)])
    await runScheduler(e)
    await deliverAll(e)

    const posts = (await standIn.requests(POSTS_PATH)).map((r) => JSON.parse(r.body))
    const notices = posts.filter((p) => /Manage Events/.test(p.content ?? ''))
    expect(notices).toHaveLength(1)
    expect(notices[0].allowed_mentions).toEqual({ parse: [] })
    // Every contest was announced all the same.
    expect(posts.filter((p) => p.embeds?.length === 1)).toHaveLength(3)
    // At most the two made before the refusal was known asked Discord; the third none.
    expect((await calls('POST')).length).toBeLessThanOrEqual(2)
    const row = await findDestination(db(), place)
    expect(row?.eventsRefusedAt).not.toBe(null)
    expect(row?.deadAt).toBe(null)

    // Turned on again from the channel: Discord is asked again.
    const again = await subscribe(
      db(),
      place,
      { platforms: ['codeforces'], events: true },
      Date.now(),
    )
    expect(again.eventsRefusedAt).toBe(null)
  })
})
