// Community destinations: a Telegram group or a Discord channel takes contest announcements with
// its own filters, set up from the chat by its administrators; each (destination, contest, lead
// time) is announced once under concurrent runs and redelivery, a chat the bot can no longer post
// to is marked dead with its reason and its owner told once, and the bots keep their pace.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { announceDue, type AnnouncementMessage } from '../src/communities/announce.ts'
import { sendAnnouncement } from '../src/communities/deliver.ts'
import { findDestination, subscribe } from '../src/communities/destinations.ts'
import { paceWait } from '../src/communities/pace.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { REPLIES } from '../src/channels/telegram/flow/bot.ts'
import { addContests, contest } from './helpers/contests.ts'
import { consume, PROVIDERS, resetNotifications, testEnv } from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { botKicked, upgradedToSupergroup } from './helpers/telegram.ts'
import { select, selectOne } from './helpers/html.ts'
import { api, createUser } from './helpers/users.ts'
import { expectNotFoundPage, expectPage, signedInBrowser } from './helpers/web-app.ts'

const TOKEN = PROVIDERS.TELEGRAM_BOT_TOKEN!
const SEND_PATH = `/telegram/bot${TOKEN}/sendMessage`
const MEMBER_PATH = `/telegram/bot${TOKEN}/getChatMember`
const DISCORD = {
  DISCORD_BOT_TOKEN: 'stand-in-discord-bot-token',
  DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
} satisfies Partial<Env>
const MINUTE = 60_000

let nextChat = -1_002_000_000_000
let updateId = 50_000

beforeEach(async () => {
  await resetNotifications()
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

const db = () => createDb(env.DB)

/** A command in a supergroup (negative id) or a private chat, from user `fromId`. */
async function command(chatId: number, text: string, fromId = 77) {
  const before = (await standIn.requests(SEND_PATH)).length
  const chat =
    chatId < 0
      ? { id: chatId, type: 'supergroup', title: 'CP Club' }
      : { id: chatId, type: 'private', first_name: 'Ada' }
  const res = await api('POST', '/telegram/webhook', {
    body: {
      update_id: ++updateId,
      message: { message_id: updateId, date: 0, chat, from: { id: fromId, is_bot: false }, text },
    },
    bindings: testEnv(),
    headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
  })
  expect(res.status).toBe(200)
  const replies = (await standIn.requests(SEND_PATH)).slice(before)
  return replies.map((r) => JSON.parse(r.body).text as string)
}

/** The next getChatMember answers administrator; the ones after it, member again. */
const scriptAdmin = () =>
  standIn.script({
    method: 'POST',
    pathPrefix: MEMBER_PATH,
    responses: ['administrator', 'member'].map((status) => ({
      status: 200,
      body: { ok: true, result: { status } },
    })),
  })

/** Runs the queue's messages the app enqueued (announcements among them), once each. */
async function deliverAll(e: ReturnType<typeof testEnv>) {
  const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  if (bodies.length === 0) return []
  return consume(
    e,
    bodies.map((body) => ({ body, attempts: 1 })),
  )
}

const announcementsOf = async (destinationId: string) =>
  (
    await env.DB.prepare(
      'SELECT status, error, lead_minutes AS lead FROM community_announcements WHERE destination_id = ?',
    )
      .bind(destinationId)
      .all<{ status: string; error: string | null; lead: number }>()
  ).results

describe('setting up from a Telegram chat', () => {
  it('lets a group’s administrators subscribe, change the settings and unsubscribe, and nobody else', async () => {
    const group = --nextChat
    expect(await command(group, '/subscribe@ContestAlertTestBot codeforces')).toEqual([
      'Only an administrator of this group can change its contest announcements.',
    ])
    // The check asked Telegram about that member of that group.
    const asked = JSON.parse((await standIn.requests(MEMBER_PATH))[0].body)
    expect(asked).toEqual({ chat_id: String(group), user_id: 77 })
    expect(await findDestination(db(), { channel: 'telegram', chatId: String(group) })).toBe(
      undefined,
    )

    await scriptAdmin()
    const [subscribed] = await command(group, '/subscribe codeforces AtCoder')
    expect(subscribed).toContain('Announcements here: Codeforces, AtCoder.')
    expect(subscribed).toContain('When: 1 h before each start.')

    await scriptAdmin()
    const [saved] = await command(group, '/settings lead 60 1440')
    expect(saved).toContain('When: 1 d, 1 h before each start.')
    await scriptAdmin()
    expect((await command(group, '/settings lead 1'))[0]).toMatch(
      /^lead times must be at least 5 minutes/,
    )
    // Anyone may read the settings; only administrators change them.
    expect((await command(group, '/settings'))[0]).toContain('When: 1 d, 1 h before each start.')
    expect(await command(group, '/settings types div2')).toEqual([
      'Only an administrator of this group can change its contest announcements.',
    ])
    await scriptAdmin()
    expect((await command(group, '/settings types div2'))[0]).toContain('Types: div2.')

    const row = await findDestination(db(), { channel: 'telegram', chatId: String(group) })
    expect(row).toMatchObject({
      platforms: ['codeforces', 'atcoder'],
      leadTimes: [1440, 60],
      contestTypes: ['div2'],
      title: 'CP Club',
    })

    expect(await command(group, '/unsubscribe')).toEqual([
      'Only an administrator of this group can change its contest announcements.',
    ])
    await scriptAdmin()
    expect(await command(group, '/unsubscribe')).toEqual([
      'Unsubscribed: no more contest announcements here.',
    ])
    expect(await findDestination(db(), { channel: 'telegram', chatId: String(group) })).toBe(
      undefined,
    )
  })

  it('takes a private chat’s own person without asking, and refuses unknown platforms', async () => {
    const chat = 9_300_000_001
    expect(await command(chat, '/subscribe nosuchjudge')).toEqual([
      'No platform is called nosuchjudge. Name the platforms: /subscribe codeforces atcoder (every one is listed by /help).',
    ])
    expect((await command(chat, '/subscribe leetcode'))[0]).toContain(
      'Announcements here: LeetCode.',
    )
    expect(await standIn.requests(MEMBER_PATH)).toEqual([])
    expect(await command(chat, '/settings colour blue')).toHaveLength(1)
    expect((await command(chat, '/help'))[0]).toBe(REPLIES.help)
  })
})

describe('announcements', () => {
  async function telegramGroup(leadTimes = [60]) {
    const chatId = String(--nextChat)
    const d = await subscribe(
      db(),
      { channel: 'telegram', chatId, title: 'CP Club' },
      { platforms: ['codeforces'], leadTimes },
      Date.now(),
    )
    return d
  }

  it('go out once per destination, contest and lead time, whatever runs and redeliveries race', async () => {
    const e = testEnv()
    const d = await telegramGroup()
    await addContests([
      contest(0.75, { name: 'Round <Due>', websiteUrl: 'https://codeforces.com/contest/9' }),
      contest(0.75, { platform: 'atcoder', type: 'ABC', name: 'Not followed' }),
      contest(30, { name: 'Much later' }),
    ])
    // Two runs at once, then a third: the unique key lets one of them make it.
    const now = Date.now()
    const runs = await Promise.all([
      announceDue(env.DB, e.NOTIFICATIONS_QUEUE, now),
      announceDue(env.DB, e.NOTIFICATIONS_QUEUE, now),
    ])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, now + MINUTE)
    expect(runs.map((r) => r.announcementsMade).sort()).toEqual([0, 1])
    expect(await announcementsOf(d.id)).toEqual([{ status: 'PENDING', error: null, lead: 60 }])
    const [message] = e.NOTIFICATIONS_QUEUE.bodies
    expect(e.NOTIFICATIONS_QUEUE.bodies).toHaveLength(1)

    await standIn.reset()
    // The same message delivered twice (a redelivery): one post.
    const results = await consume(e, [
      { body: message, attempts: 1 },
      { body: message, attempts: 2 },
    ])
    expect(results.map((r) => r.acked)).toEqual([true, true])
    const posts = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(posts).toHaveLength(1)
    expect(posts[0].chat_id).toBe(d.chatId)
    expect(posts[0].text).toMatch(/^<b>Round &lt;Due&gt; starts in/)
    expect(posts[0].text).toContain('https://codeforces.com/contest/9')
    expect(await announcementsOf(d.id)).toEqual([{ status: 'SENT', error: null, lead: 60 }])
  })

  it('follow the filters: types, words and length', async () => {
    const e = testEnv()
    const d = await subscribe(
      db(),
      { channel: 'telegram', chatId: String(--nextChat), title: 'Div 2 only' },
      { platforms: ['codeforces'] },
      Date.now(),
    )
    await env.DB.prepare(
      `UPDATE community_destinations SET contest_types = '["div2"]', exclude_words = '["kotlin"]',
        min_duration = 90 WHERE id = ?`,
    )
      .bind(d.id)
      .run()
    await addContests([
      contest(0.75, { name: 'Round A (Div. 2)', platformMetadata: { division: 'Div. 2' } }),
      contest(0.75, { name: 'Round B (Div. 1)', platformMetadata: { division: 'Div. 1' } }),
      contest(0.75, { name: 'Kotlin Heroes', platformMetadata: { division: 'Div. 2' } }),
      contest(0.75, {
        name: 'Short Div 2',
        platformMetadata: { division: 'Div. 2' },
        endTime: Date.now() + 0.75 * 3_600_000 + 60 * MINUTE,
      }),
    ])
    const made = await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    expect(made.announcementsMade).toBe(1)
    await standIn.reset()
    await deliverAll(e)
    const [post] = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(post.text).toContain('Round A (Div. 2)')
  })

  it('mark a group that kicked the bot dead with Telegram’s words, and tell its owner once', async () => {
    const e = testEnv()
    const owner = await createUser()
    const d = await telegramGroup()
    await env.DB.prepare('UPDATE community_destinations SET owner_id = ? WHERE id = ?')
      .bind(owner.id, d.id)
      .run()
    await addContests([contest(0.75), contest(0.8)])
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [botKicked],
    })
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    const row = await findDestination(db(), { channel: 'telegram', chatId: d.chatId })
    expect(row?.deadReason).toBe(
      'Telegram answered 403: Forbidden: bot was kicked from the supergroup chat',
    )
    expect(row?.deadAt).toEqual(expect.any(Number))
    const statuses = (await announcementsOf(d.id)).map((a) => a.status)
    expect(statuses).toEqual(['FAILED', 'FAILED'])
    // Both sends learnt it; the owner heard once.
    const mails = (await standIn.requests('/resend/emails'))
      .map((r) => JSON.parse(r.body))
      .filter((m) => [m.to].flat().includes(owner.email) && String(m.subject).includes('stopped'))
    expect(mails).toHaveLength(1)
    expect(mails[0].text).toContain('bot was kicked')
    // A dead destination gets nothing new.
    await addContests([contest(0.85)])
    expect((await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())).announcementsMade).toBe(0)
  })

  it('follow a group that became a supergroup to its new chat id, at once', async () => {
    const e = testEnv()
    const d = await telegramGroup()
    const newChat = String(--nextChat)
    await addContests([contest(0.75, { name: 'Round Moved' })])
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        upgradedToSupergroup(newChat),
        { status: 200, body: { ok: true, result: { message_id: 9 } } },
      ],
    })
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    const posts = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(posts.map((p) => p.chat_id)).toEqual([d.chatId, newChat])
    // Under it, the buttons act for whoever presses them (their own linked account).
    expect(posts[1].reply_markup.inline_keyboard[0].map((b: { text: string }) => b.text)).toEqual([
      'Follow',
      'Mute',
    ])
    expect(await announcementsOf(d.id)).toEqual([{ status: 'SENT', error: null, lead: 60 }])
    expect(await findDestination(db(), { channel: 'telegram', chatId: newChat })).toMatchObject({
      id: d.id,
      deadAt: null,
    })
  })

  it('mark a group dead when its supergroup is subscribed on its own already', async () => {
    const e = testEnv()
    const d = await telegramGroup()
    // The supergroup's own subscription, to AtCoder: nothing of it is due.
    const taken = await subscribe(
      db(),
      { channel: 'telegram', chatId: String(--nextChat), title: 'CP Club' },
      { platforms: ['atcoder'] },
      Date.now(),
    )
    await addContests([contest(0.75)])
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        upgradedToSupergroup(taken.chatId),
        { status: 200, body: { ok: true, result: { message_id: 10 } } },
      ],
    })
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    expect((await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body).chat_id)).toEqual([
      d.chatId,
    ])
    const row = await findDestination(db(), { channel: 'telegram', chatId: d.chatId })
    expect(row?.deadReason).toBe('The group became a supergroup that is subscribed on its own')
    expect(
      await findDestination(db(), { channel: 'telegram', chatId: taken.chatId }),
    ).toMatchObject({ id: taken.id, deadAt: null })
  })

  it('post to a Discord channel with the bot, mentioning only the chosen role; Unknown Channel is dead', async () => {
    const e = testEnv(DISCORD)
    const channelId = '1200000000000000042'
    const d = await subscribe(
      db(),
      { channel: 'discord', chatId: channelId, guildId: '1100000000000000001', title: '#contests' },
      { platforms: ['codeforces'], roleId: '1300000000000000099' },
      Date.now(),
    )
    await addContests([contest(0.75, { name: 'Round @everyone' })])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await standIn.reset()
    await deliverAll(e)
    const [post] = await standIn.requests(`/discord/api/v10/channels/${channelId}/messages`)
    expect(post.headers.authorization).toBe('Bot stand-in-discord-bot-token')
    const body = JSON.parse(post.body)
    expect(body.content).toBe('<@&1300000000000000099>')
    expect(body.allowed_mentions).toEqual({ parse: [], roles: ['1300000000000000099'] })
    expect(body.embeds[0].title).toMatch(/^Round @everyone starts in/)
    expect(await announcementsOf(d.id)).toEqual([{ status: 'SENT', error: null, lead: 60 }])

    await standIn.script({
      method: 'POST',
      pathPrefix: `/discord/api/v10/channels/${channelId}/messages`,
      responses: [{ status: 404, body: { message: 'Unknown Channel', code: 10003 } }],
    })
    await addContests([contest(0.8)])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    const row = await findDestination(db(), {
      channel: 'discord',
      chatId: channelId,
      guildId: '1100000000000000001',
    })
    expect(row?.deadReason).toBe('Discord answered 404 (code 10003): Unknown Channel')
  })

  it('wait out a 429’s retry_after, and keep a group under 20 messages a minute', async () => {
    const e = testEnv()
    const d = await telegramGroup()
    await addContests([contest(0.75)])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        {
          status: 429,
          body: {
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 75',
            parameters: { retry_after: 75 },
          },
        },
      ],
    })
    const [first] = await deliverAll(e)
    expect(first).toMatchObject({ retried: true, delaySeconds: 75 })
    expect((await announcementsOf(d.id))[0].status).toBe('RETRYING')

    // The 21st message to one group within a minute waits its turn (a window starts at its first
    // message; the bot's 30 a second are the Telegram channel's own pace, test/telegram.test.ts).
    const other = await telegramGroup()
    const waits: number[] = []
    for (let i = 0; i < 21; i++) waits.push(await paceWait(e, other, Date.now()))
    expect(waits.slice(0, 20)).toEqual(Array(20).fill(0))
    expect(waits[20]).toBeGreaterThan(0)
    // Until the minute is over, in whole seconds rounded up.
    expect(waits[20]).toBeLessThanOrEqual(61)
  })
})

describe('an announcement waiting out a 429', () => {
  const channelId = '1200000000000000077'
  const floods = {
    telegram: {
      path: SEND_PATH,
      flood: {
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: 'Too Many Requests: retry after 3',
          parameters: { retry_after: 3 },
        },
      },
      accepted: { status: 200, body: { ok: true, result: { message_id: 41, date: 0 } } },
    },
    discord: {
      path: `/discord/api/v10/channels/${channelId}/messages`,
      flood: {
        status: 429,
        headers: { 'Retry-After': '3' },
        body: { message: 'You are being rate limited.', retry_after: 3, global: false },
      },
      accepted: { status: 200, body: { id: '1600000000000000041', channel_id: channelId } },
    },
  }

  for (const channel of ['telegram', 'discord'] as const) {
    it(`holds a ${channel} announcement until retry_after: a duplicate message posts nothing and comes back, and one post goes out after the wait`, async () => {
      const e = testEnv(DISCORD)
      const chatId = channel === 'telegram' ? String(--nextChat) : channelId
      const d = await subscribe(
        db(),
        { channel, chatId, title: 'CP Club', ...(channel === 'discord' && { guildId: '11' }) },
        { platforms: ['codeforces'] },
        Date.now(),
      )
      await addContests([contest(0.75)])
      await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
      const [message] = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
      e.NOTIFICATIONS_QUEUE.delays.splice(0)
      const { announcementId } = message as unknown as AnnouncementMessage
      const { path, flood, accepted } = floods[channel]
      await standIn.reset()
      await standIn.script({ method: 'POST', pathPrefix: path, responses: [flood, accepted] })
      const posts = async () =>
        (await standIn.requests(path)).filter(
          (r) => channel === 'discord' || JSON.parse(r.body).chat_id === chatId,
        )

      const [first] = await consume(e, [{ body: message, attempts: 1 }])
      expect(first).toMatchObject({ retried: true, delaySeconds: 3 })
      // The same announcement's message again at once (a duplicate, or the retry come early):
      // no post before the 3 s are over, and the message is not lost but comes back then.
      const [duplicate] = await consume(e, [{ body: message, attempts: 1 }])
      expect(await posts()).toHaveLength(1)
      expect(duplicate).toMatchObject({ acked: true, retried: false })
      expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([message])
      expect(e.NOTIFICATIONS_QUEUE.delays[0]).toBeGreaterThanOrEqual(1)
      expect(e.NOTIFICATIONS_QUEUE.delays[0]).toBeLessThanOrEqual(3)
      expect((await announcementsOf(d.id))[0].status).toBe('RETRYING')

      // After the wait, the retry and the message that came back: one post between them.
      const deps = { env: e, db: db(), d1: env.DB }
      const later = Date.now() + 3_500
      expect(await sendAnnouncement(deps, announcementId, later)).toEqual({ done: true })
      expect(await sendAnnouncement(deps, announcementId, later + 10)).toEqual({ done: true })
      const sent = await posts()
      expect(sent.map((r) => r.status)).toEqual([429, 200])
      expect(await announcementsOf(d.id)).toEqual([{ status: 'SENT', error: null, lead: 60 }])
    })
  }

  it('records the last retry’s 429 as FAILED through the dead-letter queue, whatever it held', async () => {
    const e = testEnv()
    const chatId = String(--nextChat)
    const d = await subscribe(
      db(),
      { channel: 'telegram', chatId, title: 'CP Club' },
      { platforms: ['codeforces'] },
      Date.now(),
    )
    await addContests([contest(0.75)])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    const [message] = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [floods.telegram.flood],
    })
    const [last] = await consume(e, [{ body: message, attempts: 4 }])
    expect(last).toMatchObject({ retried: true, delaySeconds: 3 })
    // The queue gives up on it after its last retry and hands it to the dead-letter queue.
    await consume(e, [{ body: message, attempts: 1 }], 'notifications-dlq')
    expect(await announcementsOf(d.id)).toEqual([
      { status: 'FAILED', error: 'The queue gave up on it', lead: 60 },
    ])
    // A duplicate coming afterwards finds it done with.
    const [duplicate] = await consume(e, [{ body: message, attempts: 1 }])
    expect(duplicate).toMatchObject({ acked: true, retried: false })
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([])
  })
})

describe('claiming from the Communities page', () => {
  it('gives a one-time code that an administrator sends in the chat; the page then lists it, until released', async () => {
    const owner = await createUser()
    const browser = await signedInBrowser(owner)
    const empty = await browser.get('/app/communities')
    expectPage(empty, 200)
    expect((await selectOne(empty.html, '#no-communities')).text).toBe(
      'No community is claimed by your account.',
    )
    const made = await browser.submit('/app/communities', '/app/communities/claim-code', {})
    expectPage(made, 200)
    const code = (await selectOne(made.html, '#claim-code strong')).text
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/)

    const group = --nextChat
    // Claiming before subscribing keeps the code.
    await scriptAdmin()
    expect(await command(group, `/claim ${code}`)).toEqual([
      'Subscribe first, then claim with the same code.',
    ])
    await scriptAdmin()
    await command(group, '/subscribe codeforces')
    // A member who is no administrator cannot claim.
    expect(await command(group, `/claim ${code}`)).toEqual([
      'Only an administrator of this group can change its contest announcements.',
    ])
    await scriptAdmin()
    expect((await command(group, `/claim ${code.toLowerCase()}`))[0]).toMatch(/^Claimed/)
    // The code worked once.
    await scriptAdmin()
    expect((await command(group, `/claim ${code}`))[0]).toMatch(/^That code is unknown or expired/)

    const listed = await browser.get('/app/communities')
    const [item] = await select(listed.html, 'li.community')
    expect(item.text).toContain('Telegram: CP Club')
    expect(item.text).toContain('Active')
    const id = item.attrs['data-destination-id']

    // Another account cannot release it.
    const stranger = await signedInBrowser(await createUser())
    const opened = await stranger.get('/app/communities')
    await expectNotFoundPage(
      await stranger.post(`/app/communities/${id}/release`, {}, { csrf: opened.csrf }),
    )
    const released = await browser.post(`/app/communities/${id}/release`, {}, { csrf: listed.csrf })
    expect(released.status).toBe(303)
    const after = await browser.get('/app/communities?done=released')
    expect(await select(after.html, 'li.community')).toEqual([])
    // Released, not removed: the group keeps its announcements.
    expect(
      await findDestination(db(), { channel: 'telegram', chatId: String(group) }),
    ).toMatchObject({
      ownerId: null,
      platforms: ['codeforces'],
    })
  })
})
