// Announcements that follow their contest: a contest that moved or was cancelled after its
// announcement went out has every posted message edited in place, once per change, whatever runs
// and redeliveries race (Telegram's editMessageText, Discord's PATCH of the bot's message and of a
// person's webhook message); a 429 waits its retry_after; a message deleted by hand is done with;
// a destination with cleanup has each announcement deleted soon after its contest ends.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { announceDue } from '../src/communities/announce.ts'
import { scheduleMessageChanges, sendMessageChange } from '../src/communities/changes.ts'
import { findDestination, subscribe } from '../src/communities/destinations.ts'
import { upsertPlatformContests } from '../src/contests/upsert.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { HOUR_MS, MINUTE_MS } from '../src/lib/time.ts'
import { addContests, contest } from './helpers/contests.ts'
import { discordWebhook } from './helpers/discord.ts'
import {
  consume,
  deliverQueued,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api } from './helpers/users.ts'

const TOKEN = PROVIDERS.TELEGRAM_BOT_TOKEN!
const BOT = `/telegram/bot${TOKEN}`
const DISCORD = {
  DISCORD_BOT_TOKEN: 'stand-in-discord-bot-token',
  DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
} satisfies Partial<Env>
const CHANNEL = '1200000000000000501'
const GUILD = '1100000000000000501'

let nextChat = -1_004_000_000_000
let updateId = 90_000

beforeEach(async () => {
  await resetNotifications()
  await standIn.reset()
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

const db = () => createDb(env.DB)
const bodiesOf = async (path: string) =>
  (await standIn.requests(path)).map((r) => JSON.parse(r.body || '{}'))

/** A Telegram group and a Discord channel taking Codeforces, with `cleanup` as asked. */
async function destinations(cleanup = false) {
  const now = Date.now()
  const group = await subscribe(
    db(),
    { channel: 'telegram', chatId: String(--nextChat), title: 'CP Club' },
    { platforms: ['codeforces'], cleanup },
    now,
  )
  const channel = await subscribe(
    db(),
    { channel: 'discord', chatId: CHANNEL, guildId: GUILD, title: '#contests' },
    { platforms: ['codeforces'], cleanup },
    now,
  )
  return { group, channel }
}

/** Runs the queue's messages, each delivered `times` times (a redelivery). */
async function deliverAll(e: ReturnType<typeof testEnv>, times = 1) {
  const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  const messages = bodies.flatMap((body) =>
    Array.from({ length: times }, (_, i) => ({ body, attempts: i + 1 })),
  )
  return messages.length > 0 ? consume(e, messages) : []
}

/** The messages the destinations received of the contest: chat, message id. */
const posted = async () =>
  (
    await env.DB.prepare(
      `SELECT d.channel, d.chat_id AS chatId, a.provider_message_id AS messageId, a.status
        FROM community_announcements a JOIN community_destinations d ON d.id = a.destination_id
        ORDER BY d.channel`,
    ).all<{ channel: string; chatId: string; messageId: string; status: string }>()
  ).results

const changes = async () =>
  (
    await env.DB.prepare(
      'SELECT kind, change_key AS changeKey, status, error FROM community_message_changes ORDER BY change_key',
    ).all<{ kind: string; changeKey: string; status: string; error: string | null }>()
  ).results

async function moveContest(id: string, start: number) {
  await env.DB.prepare('UPDATE contests SET start_time = ?2, end_time = ?2 + 7200000 WHERE id = ?1')
    .bind(id, start)
    .run()
}

/** One contest announced to both destinations, its messages posted. */
async function announced(e: ReturnType<typeof testEnv>, cleanup = false) {
  const made = await destinations(cleanup)
  const [round] = await addContests([contest(0.75, { name: 'Round Moving' })])
  await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
  await deliverAll(e)
  const sent = await posted()
  expect(sent.map((p) => [p.channel, p.status])).toEqual([
    ['discord', 'SENT'],
    ['telegram', 'SENT'],
  ])
  return { ...made, round, sent }
}

describe('a contest that moved', () => {
  it('has each posted message edited once, whatever runs and redeliveries race', async () => {
    const e = testEnv(DISCORD)
    const { round, sent } = await announced(e)
    const [discordPost, telegramPost] = sent
    const newStart = round.startTime + 2 * HOUR_MS
    await moveContest(round.id, newStart)

    const now = Date.now()
    const runs = await Promise.all([
      scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, now),
      scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, now),
    ])
    expect(runs.map((r) => r.messageChangesMade).reduce((a, b) => a + b)).toBe(2)
    expect(await changes()).toEqual([
      { kind: 'edit', changeKey: `start:${newStart}#0`, status: 'PENDING', error: null },
      { kind: 'edit', changeKey: `start:${newStart}#0`, status: 'PENDING', error: null },
    ])
    // Each queue message twice: the claim lets one of them edit.
    const results = await deliverAll(e, 2)
    expect(results.every((r) => r.acked)).toBe(true)

    const edits = await bodiesOf(`${BOT}/editMessageText`)
    expect(edits).toHaveLength(1)
    expect(edits[0]).toMatchObject({
      chat_id: telegramPost.chatId,
      message_id: Number(telegramPost.messageId),
      parse_mode: 'HTML',
    })
    expect(edits[0].text).toMatch(/^<b>Round Moving moved: it starts /)
    const patches = await standIn.requests(
      `/discord/api/v10/channels/${CHANNEL}/messages/${discordPost.messageId}`,
    )
    expect(patches.map((p) => p.method)).toEqual(['PATCH'])
    expect(patches[0].status).toBe(200)
    const patch = JSON.parse(patches[0].body)
    expect(patch.embeds[0].title).toMatch(/^Round Moving moved: it starts /)
    expect(patch.embeds[0].timestamp).toBe(new Date(newStart).toISOString())
    expect(patch.allowed_mentions).toEqual({ parse: [] })
    expect((await changes()).map((c) => c.status)).toEqual(['DONE', 'DONE'])

    // The next run finds the messages saying what the contest says: nothing more.
    const again = await scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, now)
    expect(again.messageChangesMade).toBe(0)
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([])

    // Moved back to its first time: edited again, under the next key.
    await moveContest(round.id, round.startTime)
    const back = await scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, now)
    expect(back.messageChangesMade).toBe(2)
    expect((await changes()).map((c) => c.changeKey)).toContain(`start:${round.startTime}#1`)
  })

  it('is edited to say it was cancelled', async () => {
    const e = testEnv(DISCORD)
    const { round } = await announced(e)
    await env.DB.prepare('UPDATE contests SET is_active = 0 WHERE id = ?').bind(round.id).run()
    await scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    const [edit] = await bodiesOf(`${BOT}/editMessageText`)
    expect(edit.text).toMatch(/^<b>Cancelled: Round Moving<\/b>/)
    expect(edit.text).toContain('was cancelled')
    expect((await changes()).map((c) => c.changeKey)).toEqual(['cancelled#0', 'cancelled#0'])
  })

  it('leaves a message deleted by hand alone: Telegram’s "not found" and Discord’s 10008 are done', async () => {
    const e = testEnv(DISCORD)
    const { round } = await announced(e)
    // The stand-ins forget the messages, as chats whose members deleted them.
    await standIn.reset()
    await moveContest(round.id, round.startTime + HOUR_MS)
    await scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    expect((await changes()).map((c) => [c.status, c.error])).toEqual([
      ['DONE', 'Discord answered 404 (code 10008): Unknown Message'],
      ['DONE', 'Telegram answered 400: Bad Request: message to edit not found'],
    ])
  })

  it('waits out a 429 on an edit for its retry_after, then edits once', async () => {
    const e = testEnv()
    const group = await subscribe(
      db(),
      { channel: 'telegram', chatId: String(--nextChat), title: 'CP Club' },
      { platforms: ['codeforces'] },
      Date.now(),
    )
    const [round] = await addContests([contest(0.75)])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    await moveContest(round.id, round.startTime + HOUR_MS)
    await scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, Date.now())
    const [message] = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    e.NOTIFICATIONS_QUEUE.delays.splice(0)
    await standIn.script({
      method: 'POST',
      pathPrefix: `${BOT}/editMessageText`,
      responses: [
        {
          status: 429,
          body: {
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 7',
            parameters: { retry_after: 7 },
          },
        },
        { status: 200, body: { ok: true, result: { message_id: 1, date: 0, text: 'edited' } } },
      ],
    })
    const [first] = await consume(e, [{ body: message, attempts: 1 }])
    expect(first).toMatchObject({ retried: true, delaySeconds: 7 })
    // A duplicate meanwhile waits for the hold and edits nothing.
    const [early] = await consume(e, [{ body: message, attempts: 1 }])
    expect(early.acked).toBe(true)
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([message])
    expect(e.NOTIFICATIONS_QUEUE.delays[0]).toBeGreaterThanOrEqual(6)
    expect(await standIn.requests(`${BOT}/editMessageText`)).toHaveLength(1)
    // After the wait: the edit goes, once.
    const id = (message as unknown as { communityChangeId: string }).communityChangeId
    const later = await sendMessageChange({ env: e, db: db(), d1: env.DB }, id, Date.now() + 8_000)
    expect(later).toEqual({ done: true })
    expect(await standIn.requests(`${BOT}/editMessageText`)).toHaveLength(2)
    expect(await changes()).toEqual([expect.objectContaining({ status: 'DONE', error: null })])
    expect(group.cleanup).toBe(false)
  })
})

describe('cleanup', () => {
  it('deletes each announcement once soon after its contest ends, where asked', async () => {
    const e = testEnv(DISCORD)
    const { round, sent } = await announced(e, true)
    const [discordPost, telegramPost] = sent
    // Before the end nothing is deleted; at the run after it, each message once.
    const before = await scheduleMessageChanges(
      { db: db(), d1: env.DB },
      e.NOTIFICATIONS_QUEUE,
      Date.now(),
    )
    expect(before.messageChangesMade).toBe(0)
    const afterEnd = round.endTime + MINUTE_MS
    const runs = await Promise.all([
      scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, afterEnd),
      scheduleMessageChanges({ db: db(), d1: env.DB }, e.NOTIFICATIONS_QUEUE, afterEnd),
    ])
    expect(runs.map((r) => r.messageChangesMade).reduce((a, b) => a + b)).toBe(2)
    await deliverAll(e, 2)
    const deletes = await standIn.requests(`${BOT}/deleteMessage`)
    expect(deletes.map((r) => [JSON.parse(r.body), r.status])).toEqual([
      [{ chat_id: telegramPost.chatId, message_id: Number(telegramPost.messageId) }, 200],
    ])
    const discordDeletes = await standIn.requests(
      `/discord/api/v10/channels/${CHANNEL}/messages/${discordPost.messageId}`,
    )
    expect(discordDeletes.map((r) => [r.method, r.status])).toEqual([['DELETE', 204]])
    expect((await changes()).map((c) => [c.kind, c.status])).toEqual([
      ['delete', 'DONE'],
      ['delete', 'DONE'],
    ])
    const again = await scheduleMessageChanges(
      { db: db(), d1: env.DB },
      e.NOTIFICATIONS_QUEUE,
      afterEnd + 30 * MINUTE_MS,
    )
    expect(again.messageChangesMade).toBe(0)
  })

  it('takes Telegram’s "message can’t be deleted" (past 48 hours) as done', async () => {
    const e = testEnv()
    await subscribe(
      db(),
      { channel: 'telegram', chatId: String(--nextChat), title: 'CP Club' },
      { platforms: ['codeforces'], cleanup: true },
      Date.now(),
    )
    const [round] = await addContests([contest(0.75)])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: `${BOT}/deleteMessage`,
      responses: [
        {
          status: 400,
          body: {
            ok: false,
            error_code: 400,
            description: "Bad Request: message can't be deleted",
          },
        },
      ],
    })
    await scheduleMessageChanges(
      { db: db(), d1: env.DB },
      e.NOTIFICATIONS_QUEUE,
      round.endTime + MINUTE_MS,
    )
    await deliverAll(e)
    expect(await changes()).toEqual([
      {
        kind: 'delete',
        changeKey: 'delete',
        status: 'DONE',
        error: "Telegram answered 400: Bad Request: message can't be deleted",
      },
    ])
  })

  it('is asked for with /subscribe … cleanup, /settings cleanup and the API', async () => {
    const chat = 9_400_000_001
    const say = (text: string) =>
      api('POST', '/telegram/webhook', {
        body: {
          update_id: ++updateId,
          message: {
            message_id: updateId,
            date: 0,
            chat: { id: chat, type: 'private', first_name: 'Ada' },
            from: { id: chat, is_bot: false },
            text,
          },
        },
        bindings: testEnv(),
        headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
      })
    await say('/subscribe codeforces cleanup')
    const place = { channel: 'telegram' as const, chatId: String(chat) }
    expect(await findDestination(db(), place)).toMatchObject({
      platforms: ['codeforces'],
      cleanup: true,
    })
    const [reply] = await bodiesOf(`${BOT}/sendMessage`)
    expect(reply.text).toContain('Cleanup: each announcement is deleted after its contest ends.')
    await say('/settings cleanup off')
    const row = await findDestination(db(), place)
    expect(row).toMatchObject({ cleanup: false })
    // Its owner turns it on from the API (the Communities page posts the same field).
    const owner = await recipient()
    await env.DB.prepare('UPDATE community_destinations SET owner_id = ? WHERE id = ?')
      .bind(owner.id, row!.id)
      .run()
    const res = await api('PATCH', `/communities/${row!.id}`, {
      token: owner.accessToken,
      body: { cleanup: true },
    })
    expect(res.status).toBe(200)
    expect(res.body.cleanup).toBe(true)
    const refused = await api('PATCH', `/communities/${row!.id}`, {
      token: owner.accessToken,
      body: { cleanup: 'yes' },
    })
    expect(refused.status).toBe(400)
  })
})

describe('a person’s reminders', () => {
  it('are edited in their Telegram chat and Discord webhook once when the contest moves', async () => {
    const e = testEnv()
    const now = Date.now()
    const telegramUser = await recipient({ notifyBefore: 24 })
    const chat = '7100000001'
    await env.DB.prepare(
      'UPDATE users SET telegram_chat_id = ?1, notify_telegram = 1 WHERE id = ?2',
    )
      .bind(chat, telegramUser.id)
      .run()
    const webhookUser = await recipient({ notifyBefore: 24 })
    const hook = discordWebhook()
    await env.DB.prepare(
      'UPDATE users SET discord_webhook_url = ?1, notify_discord = 1 WHERE id = ?2',
    )
      .bind(hook.url, webhookUser.id)
      .run()
    const [round] = await addContests([contest(5, { name: 'Personal Round' }, now)])
    await runScheduler(e, now)
    await deliverQueued(e)
    const [reminder] = await bodiesOf(`${BOT}/sendMessage`)
    expect(reminder.chat_id).toBe(chat)
    const sentIds = await env.DB.prepare(
      `SELECT channel, provider_message_id AS id FROM notification_deliveries
        WHERE channel IN ('telegram', 'discord') AND status = 'SENT' ORDER BY channel`,
    ).all<{ channel: string; id: string }>()
    expect(sentIds.results.map((r) => r.channel)).toEqual(['discord', 'telegram'])
    const [discordId, telegramId] = sentIds.results.map((r) => r.id)

    const newStart = round.startTime + 2 * HOUR_MS
    const moved = { ...round, startTime: newStart, endTime: newStart + 2 * HOUR_MS } as any
    for (const key of Object.keys(moved)) if (moved[key] === null) delete moved[key]
    await upsertPlatformContests(db(), 'codeforces', [moved], now + MINUTE_MS)
    await runScheduler(e, now + 30 * MINUTE_MS)
    await deliverQueued(e)
    // A second run, after the reschedule was handled: no edit again.
    await runScheduler(e, now + 60 * MINUTE_MS)
    await deliverQueued(e)

    const edits = await bodiesOf(`${BOT}/editMessageText`)
    expect(edits).toHaveLength(1)
    expect(edits[0]).toMatchObject({ chat_id: chat, message_id: Number(telegramId) })
    expect(edits[0].text).toMatch(/^<b>Personal Round moved: it starts /)
    const patches = await standIn.requests(`${hook.path}/messages/${discordId}`)
    expect(patches.map((p) => [p.method, p.status])).toEqual([['PATCH', 200]])
    expect(JSON.parse(patches[0].body).embeds[0].title).toMatch(/^Personal Round moved/)
    const { results } = await env.DB.prepare(
      'SELECT change_key AS changeKey, status FROM notification_edits',
    ).all<{ changeKey: string; status: string }>()
    expect(results).toEqual([
      { changeKey: `start:${newStart}#0`, status: 'DONE' },
      { changeKey: `start:${newStart}#0`, status: 'DONE' },
    ])
  })
})
