// The Telegram channel end to end: the deep link, the bot's webhook (/start, /stop), reminders sent
// through the Bot API stand-in, a blocked bot, Telegram's 429 with retry_after, and the settings.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { sendTelegram } from '../src/channels/telegram/bot-api.ts'
import { telegramSlot } from '../src/channels/telegram/pace.ts'
import { readOutbox } from '../src/channels/outbox.ts'
import type { Env } from '../src/env.ts'
import { sha256Hex } from '../src/lib/crypto.ts'
import { LINK_TOKEN_TTL_MS } from '../src/users/telegram-links.ts'
import { REPLIES } from '../src/channels/telegram/flow/bot.ts'
import { BUTTON_REPLIES } from '../src/channels/telegram/flow/callbacks.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  attemptAt,
  consume,
  deliverQueued,
  notificationsOf,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { standIn } from './helpers/stand-in.ts'
import { upgradedToSupergroup } from './helpers/telegram.ts'
import { api, type TestUser } from './helpers/users.ts'

beforeEach(resetNotifications)

const SECRET = PROVIDERS.TELEGRAM_WEBHOOK_SECRET!
const SEND_PATH = `/telegram/bot${PROVIDERS.TELEGRAM_BOT_TOKEN}/sendMessage`
const MEMBER_PATH = `/telegram/bot${PROVIDERS.TELEGRAM_BOT_TOKEN}/getChatMember`
let updateId = 1000
let nextChat = 7_000_000_001

/**
 * An Update as Telegram posts it: a text message in a private chat (or, with a negative id, a
 * supergroup), with fields the bot ignores.
 */
function update(chatId: number, text: string) {
  const chat =
    chatId < 0
      ? { id: chatId, type: 'supergroup', title: 'CP Club' }
      : { id: chatId, type: 'private', first_name: 'Ada' }
  return {
    update_id: ++updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      from: { id: Math.abs(chatId) + 1, is_bot: false, first_name: 'Ada', language_code: 'en' },
      chat,
      text,
    },
  }
}

/** `secret` null sends no secret header. */
function webhook(body: unknown, e: Env, secret: string | null = SECRET) {
  return api('POST', '/telegram/webhook', {
    body,
    bindings: e,
    headers: secret === null ? {} : { 'X-Telegram-Bot-Api-Secret-Token': secret },
  })
}

/** The Bot API's sendMessage calls the stand-in received, parsed. */
async function sentMessages() {
  const requests = await standIn.requests(SEND_PATH)
  return requests.map((r) => JSON.parse(r.body) as Record<string, any>)
}

async function linkToken(user: TestUser, e: Env): Promise<string> {
  const res = await api('POST', '/users/telegram/link', { token: user.accessToken, bindings: e })
  expect(res.status).toBe(201)
  return new URL(res.body.url).searchParams.get('start')!
}

/** A recipient (email off) whose new chat is linked through the deep link and /start. */
async function linkedUser(e: Env) {
  const user = await recipient({ channels: { email: false } })
  const chatId = nextChat++
  const start = await webhook(update(chatId, `/start ${await linkToken(user, e)}`), e)
  expect(start.status).toBe(200)
  await standIn.reset()
  return { user, chatId }
}

const profileOf = async (user: TestUser) =>
  (await api('GET', '/users/profile', { token: user.accessToken })).body

const telegramDelivery = async (userId: string) =>
  (await notificationsOf(userId))[0]?.deliveries.find(
    (d: { channel: string }) => d.channel === 'telegram',
  )

describe('linking a chat', () => {
  it('gives a one-time deep link that lasts 15 minutes', async () => {
    const e = testEnv()
    const user = await recipient()
    const before = Date.now()
    const res = await api('POST', '/users/telegram/link', { token: user.accessToken, bindings: e })
    expect(res.status).toBe(201)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    expect(res.body.url).toMatch(/^https:\/\/t\.me\/ContestAlertTestBot\?start=[A-Za-z0-9_-]{43}$/)
    const expires = Date.parse(res.body.expiresAt)
    expect(expires).toBeGreaterThanOrEqual(before + LINK_TOKEN_TTL_MS)
    expect(expires).toBeLessThanOrEqual(Date.now() + LINK_TOKEN_TTL_MS)
    // Only the token's hash is stored.
    const token = new URL(res.body.url).searchParams.get('start')!
    const stored = await env.DB.prepare('SELECT token_hash FROM telegram_links WHERE user_id = ?')
      .bind(user.id)
      .all<{ token_hash: string }>()
    expect(stored.results).toHaveLength(1)
    expect(stored.results[0].token_hash).toBe(await sha256Hex(token))
  })

  it('links in a local run without a bot token, the bot’s replies going to the local outbox', async () => {
    const e = testEnv({ TELEGRAM_BOT_TOKEN: '', DEV_OUTBOX: 'true' })
    const user = await recipient()
    const chatId = nextChat++
    const start = await webhook(update(chatId, `/start ${await linkToken(user, e)}`), e)
    expect(start.status).toBe(200)
    expect((await profileOf(user)).telegram).toEqual({ linked: true })
    const [reply] = await readOutbox(env.KV, 1)
    expect(reply).toMatchObject({ channel: 'telegram', to: String(chatId) })
    expect(await sentMessages()).toEqual([])
  })

  it('answers 503 in the error shape when the bot is not configured', async () => {
    const user = await recipient()
    for (const off of [{ TELEGRAM_BOT_TOKEN: '' }, { TELEGRAM_BOT_USERNAME: '' }]) {
      const res = await api('POST', '/users/telegram/link', {
        token: user.accessToken,
        bindings: testEnv(off),
      })
      expect(res.status).toBe(503)
      expect(res.body).toEqual({
        statusCode: 503,
        message: 'Telegram is not available: the bot is not configured',
        error: 'Service Unavailable',
      })
    }
    expect((await api('POST', '/users/telegram/link', { bindings: testEnv() })).status).toBe(401)
  })

  it('links the chat on /start <token>, replies, and spends the token', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: false } })
    expect((await profileOf(user)).telegram).toEqual({ linked: false })
    const token = await linkToken(user, e)
    const res = await webhook(update(4242, `/start ${token}`), e)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
    expect(await sentMessages()).toEqual([
      {
        chat_id: '4242',
        text: REPLIES.linked,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      },
    ])
    const profile = await profileOf(user)
    expect(profile.telegram).toEqual({ linked: true })
    expect(profile.preferences.notificationChannels.telegram).toBe(true)
    expect(JSON.stringify(profile)).not.toContain('4242')

    // The same token again links nothing: the other chat is told the link expired.
    await standIn.reset()
    await webhook(update(5151, `/start ${token}`), e)
    expect((await sentMessages()).map((m) => [m.chat_id, m.text])).toEqual([
      ['5151', REPLIES.expired],
    ])
    const row = await env.DB.prepare('SELECT telegram_chat_id AS chat FROM users WHERE id = ?')
      .bind(user.id)
      .first<{ chat: string }>()
    expect(row?.chat).toBe('4242')
  })

  it('replies that the link expired to an unknown, malformed or expired token, linking nothing', async () => {
    const e = testEnv()
    const user = await recipient()
    const token = await linkToken(user, e)
    await env.DB.prepare('UPDATE telegram_links SET expires_at = ? WHERE user_id = ?')
      .bind(Date.now() - 1, user.id)
      .run()
    const unknown = 'A'.repeat(43)
    for (const text of [`/start ${token}`, `/start ${unknown}`, '/start not-a-token', '/start']) {
      expect((await webhook(update(6161, text), e)).status).toBe(200)
    }
    const replies = await sentMessages()
    expect(replies).toHaveLength(4)
    expect(replies.every((m) => m.chat_id === '6161' && m.text === REPLIES.expired)).toBe(true)
    expect((await profileOf(user)).telegram).toEqual({ linked: false })
  })

  it('refuses a missing or wrong secret with 401 and answers 503 without one set', async () => {
    const e = testEnv()
    const user = await recipient()
    const token = await linkToken(user, e)
    const body = update(7171, `/start ${token}`)
    for (const secret of [null, 'wrong', `${SECRET}x`, '']) {
      const res = await webhook(body, e, secret)
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    }
    const unset = await webhook(body, testEnv({ TELEGRAM_WEBHOOK_SECRET: '' }))
    expect(unset.status).toBe(503)
    expect(await sentMessages()).toEqual([])
    expect((await profileOf(user)).telegram).toEqual({ linked: false })
  })

  it('acknowledges updates it ignores and refuses what is no update', async () => {
    const e = testEnv()
    const edited = { update_id: ++updateId, edited_message: { chat: { id: 1 }, text: '/stop' } }
    expect((await webhook(edited, e)).status).toBe(200)
    expect((await webhook(update(8181, 'hello'), e)).status).toBe(200)
    expect(await sentMessages()).toEqual([])
    expect((await webhook({ message: { text: '/stop' } }, e)).status).toBe(400)
  })
})

describe('the bot’s commands, in a private chat and a group', () => {
  const PRIVATE = 9_100_000_001
  const GROUP = -1_009_100_000_001

  beforeEach(async () => {
    await env.DB.prepare('DELETE FROM contests').run()
  })

  const replyTo = async (chatId: number, text: string) => {
    await standIn.reset()
    expect((await webhook(update(chatId, text), testEnv())).status).toBe(200)
    return (await sentMessages()).map((m) => m.text as string)
  }

  it('/upcoming lists the next contests, soonest first, linked, with their start in UTC', async () => {
    await addContests([
      contest(30, { name: 'Round <Two>', websiteUrl: 'https://codeforces.com/contest/2' }),
      contest(5, { name: 'Round One', websiteUrl: 'https://codeforces.com/contest/1' }),
      contest(-1, { name: 'Running now' }),
    ])
    for (const [chat, text] of [
      [PRIVATE, '/upcoming'],
      [GROUP, '/upcoming@ContestAlertTestBot'],
    ] as const) {
      const [reply] = await replyTo(chat, text)
      expect(reply.startsWith('<b>Upcoming contests</b>')).toBe(true)
      const one = reply.indexOf('<a href="https://codeforces.com/contest/1">Round One</a>')
      const two = reply.indexOf('Round &lt;Two&gt;')
      expect(one).toBeGreaterThan(0)
      expect(two).toBeGreaterThan(one)
      expect(reply).toMatch(/UTC, in about 5 hours/)
      expect(reply).not.toContain('Running now')
    }
  })

  it('/next and /upcoming <platform> narrow the list; an unknown platform is named back', async () => {
    await addContests([
      contest(5, { platform: 'atcoder', type: 'ABC', name: 'ABC 500' }),
      contest(8, { platform: 'atcoder', type: 'ARC', name: 'ARC 300' }),
      contest(2, { name: 'Round Soon' }),
    ])
    const [next] = await replyTo(GROUP, '/next@ContestAlertTestBot')
    expect(next).toContain('Round Soon')
    expect(next).not.toContain('ABC 500')
    const [atcoder] = await replyTo(PRIVATE, '/upcoming AtCoder')
    expect(atcoder.startsWith('<b>Upcoming AtCoder contests</b>')).toBe(true)
    expect(atcoder).toContain('ARC 300')
    expect(atcoder).not.toContain('Round Soon')
    expect(await replyTo(PRIVATE, '/next leetcode')).toEqual([
      'No upcoming LeetCode contests in the catalogue.',
    ])
    expect(await replyTo(GROUP, '/upcoming nosuchjudge')).toEqual([
      'No platform is called nosuchjudge. /help lists them.',
    ])
  })

  it('escapes what the chat typed in its HTML replies, so Telegram takes them', async () => {
    const answered = async (chatId: number, text: string) => {
      const replies = await replyTo(chatId, text)
      const statuses = (await standIn.requests(SEND_PATH)).map((r) => r.status)
      expect(statuses, text).toEqual([200])
      return replies
    }
    expect(await answered(PRIVATE, '/upcoming <b>x</b>')).toEqual([
      'No platform is called &lt;b&gt;x&lt;/b&gt;. /help lists them.',
    ])
    // An unclosed tag: unescaped, Telegram refuses the whole reply and the chat hears nothing.
    expect(await answered(GROUP, '/next <i>&')).toEqual([
      'No platform is called &lt;i&gt;&amp;. /help lists them.',
    ])
    expect(await answered(PRIVATE, '/subscribe codeforces <tg-spoiler>')).toEqual([
      'No platform is called &lt;tg-spoiler&gt;. Name the platforms: /subscribe codeforces ' +
        'atcoder (every one is listed by /help).',
    ])
    await answered(PRIVATE, '/subscribe codeforces')
    const [saved] = await answered(PRIVATE, '/settings include <b>div</b> "x"')
    expect(saved).toContain('Only names with: &lt;b&gt;div&lt;/b&gt;, &quot;x&quot;.')
  })

  it('/help lists the commands; a command for another bot, or none, gets no reply', async () => {
    expect(await replyTo(PRIVATE, '/help')).toEqual([REPLIES.help])
    expect(await replyTo(GROUP, '/help@ContestAlertTestBot')).toEqual([REPLIES.help])
    expect(await replyTo(GROUP, '/upcoming@SomeOtherBot')).toEqual([])
    expect(await replyTo(GROUP, 'upcoming contests anyone?')).toEqual([])
    expect(await replyTo(PRIVATE, '/nosuchcommand')).toEqual([])
  })
})

describe('reminders over Telegram', () => {
  it('send a due reminder once to the linked chat, as HTML with the contest link', async () => {
    const e = testEnv()
    const { user, chatId } = await linkedUser(e)
    const url = 'https://codeforces.com/contests/2077'
    await addContests([contest(3, { name: 'Codeforces Round <2077>', websiteUrl: url })])
    await runScheduler(e)
    const [result] = await deliverQueued(e)
    expect(result).toMatchObject({ acked: true, retried: false })
    const [message, ...more] = await sentMessages()
    expect(more).toEqual([])
    expect(message).toMatchObject({
      chat_id: String(chatId),
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    })
    expect(message.text).toMatch(/^<b>Reminder: Codeforces Round &lt;2077&gt; starts in/)
    expect(message.text).toContain(`<a href="${url}">Open the contest page</a>`)
    expect(await telegramDelivery(user.id)).toMatchObject({ status: 'SENT', attempts: 1 })

    // The next run finds nothing new to send.
    await runScheduler(e)
    expect(await deliverQueued(e)).toEqual([])
    expect(await sentMessages()).toHaveLength(1)
  })

  it('stop after /stop: the chat is unlinked and the next reminder has no Telegram delivery', async () => {
    const e = testEnv()
    const { user, chatId } = await linkedUser(e)
    expect((await webhook(update(chatId, '/stop'), e)).status).toBe(200)
    expect((await sentMessages()).map((m) => m.text)).toEqual([REPLIES.stopped])
    const profile = await profileOf(user)
    expect(profile.telegram).toEqual({ linked: false })
    expect(profile.preferences.notificationChannels.telegram).toBe(false)
    // Not a block: the user chose it.
    expect(profile.channelStatus).toEqual({})

    await standIn.reset()
    await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { preferences: { notificationChannels: { email: true } } },
    })
    await addContests([contest(3)])
    await runScheduler(e)
    const [notification] = await notificationsOf(user.id)
    expect(notification.channels).toEqual(['email'])
    await deliverQueued(e)
    expect(await sentMessages()).toEqual([])
  })

  it('refuses /stop in a group from a member who is no administrator, and unlinks for one', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: false } })
    const group = -nextChat++
    expect((await webhook(update(group, `/start ${await linkToken(user, e)}`), e)).status).toBe(200)
    expect((await profileOf(user)).telegram).toMatchObject({ linked: true })
    await standIn.reset()

    expect((await webhook(update(group, '/stop'), e)).status).toBe(200)
    expect((await sentMessages()).map((m) => m.text)).toEqual([REPLIES.stopAdminsOnly])
    // Telegram was asked about that member of that group.
    const [asked] = await standIn.requests(MEMBER_PATH)
    expect(JSON.parse(asked.body)).toEqual({ chat_id: String(group), user_id: -group + 1 })
    expect((await profileOf(user)).telegram).toMatchObject({ linked: true })

    await standIn.reset()
    await standIn.script({
      method: 'POST',
      pathPrefix: MEMBER_PATH,
      responses: [{ status: 200, body: { ok: true, result: { status: 'administrator' } } }],
    })
    expect((await webhook(update(group, '/stop'), e)).status).toBe(200)
    expect((await sentMessages()).map((m) => m.text)).toEqual([REPLIES.stopped])
    expect((await profileOf(user)).telegram).toEqual({ linked: false })
  })

  it('unlink, turn Telegram off and show bot-blocked when the user blocked the bot', async () => {
    const e = testEnv()
    const { user } = await linkedUser(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        {
          status: 403,
          body: {
            ok: false,
            error_code: 403,
            description: 'Forbidden: bot was blocked by the user',
          },
        },
      ],
    })
    await addContests([contest(3)])
    await runScheduler(e)
    const [result] = await deliverQueued(e)
    expect(result).toMatchObject({ acked: true, retried: false })
    expect(await telegramDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Telegram answered 403: Forbidden: bot was blocked by the user',
    })
    const profile = await profileOf(user)
    expect(profile.telegram).toEqual({ linked: false })
    expect(profile.preferences.notificationChannels.telegram).toBe(false)
    expect(profile.channelStatus).toEqual({
      telegram: { blocked: true, reason: 'bot-blocked', since: expect.any(String) },
    })

    // Linking again clears the block.
    await webhook(update(9191, `/start ${await linkToken(user, e)}`), e)
    const relinked = await profileOf(user)
    expect(relinked.telegram).toEqual({ linked: true })
    expect(relinked.channelStatus).toEqual({})
  })

  it('retry a 429 no sooner than its retry_after, a duplicate message meanwhile sending nothing, then send', async () => {
    const e = testEnv()
    const { user } = await linkedUser(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        {
          status: 429,
          body: {
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 120',
            parameters: { retry_after: 120 },
          },
        },
        { status: 200, body: { ok: true, result: { message_id: 77 } } },
      ],
    })
    await addContests([contest(3)])
    await runScheduler(e)
    const [message] = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    e.NOTIFICATIONS_QUEUE.delays.splice(0)
    const before = (await standIn.requests(SEND_PATH)).length
    const [first] = await consume(e, [{ body: message, attempts: 1 }])
    expect(first).toMatchObject({ acked: false, retried: true })
    expect(first.delaySeconds).toBeGreaterThanOrEqual(120)
    expect(await telegramDelivery(user.id)).toMatchObject({ status: 'RETRYING', retryCount: 1 })

    // The same message again at once (a duplicate, or the retry come early): nothing is sent
    // before the 120 s are over, and the message comes back then as a new one.
    const [duplicate] = await consume(e, [{ body: message, attempts: 1 }])
    expect(duplicate).toMatchObject({ acked: true, retried: false })
    expect(await standIn.requests(SEND_PATH)).toHaveLength(before + 1)
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([message])
    expect(e.NOTIFICATIONS_QUEUE.delays[0]).toBeGreaterThanOrEqual(119)
    expect(await telegramDelivery(user.id)).toMatchObject({ status: 'RETRYING', retryCount: 1 })

    // Once the wait is over, the retry sends it.
    expect(await attemptAt(e, message, Date.now() + 121_000)).toEqual([{ kind: 'sent' }])
    const delivery = await env.DB.prepare(
      `SELECT status, provider_message_id AS id FROM notification_deliveries WHERE channel = 'telegram'
       AND notification_id IN (SELECT id FROM notifications WHERE user_id = ?)`,
    )
      .bind(user.id)
      .first()
    expect(delivery).toEqual({ status: 'SENT', id: '77' })
  })

  it('retry a 5xx after the usual delay and fail another 4xx at once', async () => {
    const e = testEnv()
    const { user } = await linkedUser(e)
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        { status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } },
        {
          status: 400,
          body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
        },
      ],
    })
    await addContests([contest(3)])
    await runScheduler(e)
    const [message] = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    const [first] = await consume(e, [{ body: message, attempts: 1 }])
    expect(first).toMatchObject({ retried: true, delaySeconds: 60 })
    const [second] = await consume(e, [{ body: message, attempts: 2 }])
    expect(second).toMatchObject({ acked: true, retried: false })
    expect(await telegramDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Telegram answered 400: Bad Request: chat not found',
    })
    // Only a 403 unlinks the chat.
    expect((await profileOf(user)).telegram).toEqual({ linked: true })
  })
})

describe('the buttons under a reminder', () => {
  const ANSWER_PATH = `/telegram/bot${PROVIDERS.TELEGRAM_BOT_TOKEN}/answerCallbackQuery`

  /** A press on a button, by the person `fromId`, under a message in `chatId`. */
  async function press(fromId: number, data: string, e: Env, chatId = fromId) {
    await standIn.reset()
    const chat = chatId < 0 ? { id: chatId, type: 'supergroup' } : { id: chatId, type: 'private' }
    const res = await webhook(
      {
        update_id: ++updateId,
        callback_query: {
          id: `cb${updateId}`,
          from: { id: fromId, is_bot: false, first_name: 'Ada' },
          message: { message_id: 5, date: 0, chat },
          chat_instance: '-4242',
          data,
        },
      },
      e,
    )
    expect(res.status).toBe(200)
    const answers = await standIn.requests(ANSWER_PATH)
    return answers.map((r) => JSON.parse(r.body) as { callback_query_id: string; text: string })
  }

  const choices = async (user: TestUser) =>
    (
      await api('GET', '/users/contests/subscriptions', { token: user.accessToken })
    ).body.subscriptions.map((c: { contestId: string; mode: string }) => [c.contestId, c.mode])

  it('are Follow, Mute, the snooze and, on a public address, Add to calendar with the contest’s .ics', async () => {
    const e = testEnv({ APP_URL: 'https://alerts.example' })
    await linkedUser(e)
    await addContests([contest(3)])
    const id = (await env.DB.prepare('SELECT id FROM contests').first<{ id: string }>())!.id
    await runScheduler(e)
    await deliverQueued(e)
    const [message] = await sentMessages()
    expect(message.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Follow', callback_data: `follow:${id}` },
          { text: 'Mute', callback_data: `mute:${id}` },
        ],
        [{ text: 'Remind me 10 minutes before', callback_data: `snooze:${id}` }],
        [{ text: 'Add to calendar', url: `https://alerts.example/contests/${id}/calendar.ics` }],
      ],
    })
  })

  it('leave out Add to calendar on a local address, which Telegram would refuse', async () => {
    const e = testEnv()
    await linkedUser(e)
    await addContests([contest(3)])
    await runScheduler(e)
    await deliverQueued(e)
    const [message] = await sentMessages()
    expect(
      message.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text),
    ).toEqual(['Follow', 'Mute', 'Remind me 10 minutes before'])
  })

  it('follow and mute the contest for the presser’s linked account, in a private chat or a group', async () => {
    const e = testEnv()
    const { user, chatId } = await linkedUser(e)
    await addContests([contest(3, { name: 'Round 77' })])
    const id = (await env.DB.prepare('SELECT id FROM contests').first<{ id: string }>())!.id

    const followed = await press(chatId, `follow:${id}`, e)
    expect(followed).toEqual([
      {
        callback_query_id: `cb${updateId}`,
        text: 'Following Round 77: its reminders come whatever your filters say.',
      },
    ])
    expect(await choices(user)).toEqual([[id, 'follow']])

    // Under a group's announcement the button acts for whoever presses it.
    const muted = await press(chatId, `mute:${id}`, e, -1_001_234_567_890)
    expect(muted[0].text).toBe('Muted Round 77: no more reminders for it.')
    expect(await choices(user)).toEqual([[id, 'mute']])
  })

  it('change nothing for someone without a linked account, a gone contest or data the bot never made', async () => {
    const e = testEnv()
    const { user, chatId } = await linkedUser(e)
    await addContests([contest(3)])
    const id = (await env.DB.prepare('SELECT id FROM contests').first<{ id: string }>())!.id
    expect((await press(chatId + 1_000_000, `follow:${id}`, e))[0].text).toBe(
      BUTTON_REPLIES.notLinked,
    )
    expect((await press(chatId, `follow:${'f'.repeat(24)}`, e))[0].text).toBe(BUTTON_REPLIES.gone)
    for (const data of ['delete:' + id, `follow:${id}; DROP`, '']) {
      expect((await press(chatId, data, e))[0].text).toBe(BUTTON_REPLIES.stale)
    }
    expect(await choices(user)).toEqual([])
    // Too long for Telegram's 64 bytes: not an update the bot made.
    const long = await webhook(
      {
        update_id: ++updateId,
        callback_query: { id: 'x', from: { id: chatId }, data: 'f'.repeat(65) },
      },
      e,
    )
    expect(long.status).toBe(400)
  })
})

describe('a group that became a supergroup', () => {
  it('moves the linked chat to its new id, and the retry goes there', async () => {
    const e = testEnv()
    const { user, chatId } = await linkedUser(e)
    const newId = -1_009_999_000_001
    await standIn.script({
      method: 'POST',
      pathPrefix: SEND_PATH,
      responses: [
        upgradedToSupergroup(newId),
        { status: 200, body: { ok: true, result: { message_id: 78 } } },
      ],
    })
    await addContests([contest(3)])
    await runScheduler(e)
    const [message] = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    const [first] = await consume(e, [{ body: message, attempts: 1 }])
    expect(first).toMatchObject({ retried: true })
    const linked = await env.DB.prepare('SELECT telegram_chat_id AS chat FROM users WHERE id = ?')
      .bind(user.id)
      .first<{ chat: string }>()
    expect(linked?.chat).toBe(String(newId))

    await consume(e, [{ body: message, attempts: 2 }])
    const chats = (await sentMessages()).map((m) => m.chat_id)
    expect(chats).toEqual([String(chatId), String(newId)])
    expect(await telegramDelivery(user.id)).toMatchObject({ status: 'SENT' })
  })
})

describe('the bot’s pace', () => {
  it('keeps every send under 30 a second: the 31st waits for the next second, then goes', async () => {
    const e = testEnv()
    const counter = () => e.RATE_LIMITER.get(e.RATE_LIMITER.idFromName('pace:telegram'))
    // Spend this second's 30 slots, as 30 other sends would.
    let spent
    do spent = await counter().hit(30, 1000)
    while (spent.remaining > 0)
    const window = spent.reset
    expect(await telegramSlot(e)).toBeUndefined()
    // The slot was counted in a later window, so the send waited for it.
    const after = await counter().hit(30, 1000)
    expect(after.reset).toBeGreaterThan(window)
    expect(after.remaining).toBeLessThanOrEqual(28)

    // Reminders take the same slots: a due one goes out once its slot comes.
    const { user } = await linkedUser(e)
    await addContests([contest(3)])
    await runScheduler(e)
    do spent = await counter().hit(30, 1000)
    while (spent.remaining > 0)
    await deliverQueued(e)
    expect(await telegramDelivery(user.id)).toMatchObject({ status: 'SENT', attempts: 1 })
  })
})

describe('DELETE /users/telegram', () => {
  it('unlinks the chat and turns Telegram off (204, also when nothing is linked)', async () => {
    const e = testEnv()
    const { user } = await linkedUser(e)
    const res = await api('DELETE', '/users/telegram', { token: user.accessToken, bindings: e })
    expect(res.status).toBe(204)
    const profile = await profileOf(user)
    expect(profile.telegram).toEqual({ linked: false })
    expect(profile.preferences.notificationChannels.telegram).toBe(false)
    const again = await api('DELETE', '/users/telegram', { token: user.accessToken, bindings: e })
    expect(again.status).toBe(204)
    expect((await api('DELETE', '/users/telegram', { bindings: e })).status).toBe(401)
  })
})

describe('sendTelegram', () => {
  it('writes to the local outbox under DEV_OUTBOX when no bot token is set', async () => {
    const e = testEnv({ TELEGRAM_BOT_TOKEN: '', DEV_OUTBOX: 'true' })
    const result = await sendTelegram(e, { chatId: '31337', text: '<b>Local</b>' })
    expect(result).toMatchObject({ ok: true, provider: 'outbox' })
    const [latest] = await readOutbox(env.KV, 1)
    expect(latest).toMatchObject({ id: result.id, channel: 'telegram', to: '31337' })
    expect(await sentMessages()).toEqual([])
  })

  it('calls a network failure transient without naming the token', async () => {
    const e = testEnv({ TELEGRAM_API_URL: 'http://127.0.0.1:9' })
    const result = await sendTelegram(e, { chatId: '31337', text: 'hi' })
    expect(result).toMatchObject({ ok: false, transient: true })
    expect(result.error).not.toContain(PROVIDERS.TELEGRAM_BOT_TOKEN)
  })
})
