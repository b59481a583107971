// The snooze of a reminder ("Remind me 10 minutes before"): offered by Telegram's button, the push
// notification's action and the email's signed link; each makes one more reminder of the contest
// for the person, 10 minutes before its start, once however often and however fast it is pressed,
// sent through the queue as any reminder; refused in words when too late, and in the error shape
// for a forged or expired link.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { MINUTE_MS } from '../src/lib/time.ts'
import { SNOOZE_LINK_TTL_MS, snoozeToken } from '../src/notifications/snooze-link.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  capturePushBodies,
  decryptPush,
  deliverQueued,
  mailsTo,
  notificationsOf,
  PROVIDERS,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
  type RecordingQueue,
} from './helpers/notifications.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, nextIp } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

beforeEach(resetNotifications)

const SNOOZE = '/notifications/snooze'
const SEND_PATH = `/telegram/bot${PROVIDERS.TELEGRAM_BOT_TOKEN}/sendMessage`
const ANSWER_PATH = `/telegram/bot${PROVIDERS.TELEGRAM_BOT_TOKEN}/answerCallbackQuery`
const BUTTON = 'Remind me 10 minutes before'
let updateId = 50_000
let nextChat = 8_000_000_001

type TestEnv = Env & { NOTIFICATIONS_QUEUE: RecordingQueue }

/** Telegram's webhook call with the bot's secret. */
const webhook = (body: unknown, e: Env) =>
  api('POST', '/telegram/webhook', {
    body,
    bindings: e,
    headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
  })

/** A recipient (email off) with a Telegram chat linked through the deep link and /start. */
async function telegramUser(e: Env, leadTimes?: number[]) {
  const user = await recipient({ channels: { email: false }, leadTimes })
  const link = await api('POST', '/users/telegram/link', { token: user.accessToken, bindings: e })
  expect(link.status).toBe(201)
  const chatId = nextChat++
  const start = await webhook(
    {
      update_id: ++updateId,
      message: {
        message_id: updateId,
        date: Math.floor(Date.now() / 1000),
        from: { id: chatId, is_bot: false, first_name: 'Ada' },
        chat: { id: chatId, type: 'private', first_name: 'Ada' },
        text: `/start ${new URL(link.body.url).searchParams.get('start')}`,
      },
    },
    e,
  )
  expect(start.status).toBe(200)
  await standIn.reset()
  return { user, chatId }
}

/** A press of a button by `chatId` in its own chat; answers the text Telegram was asked to show. */
async function press(chatId: number, data: string, e: Env) {
  await standIn.reset()
  const res = await webhook(
    {
      update_id: ++updateId,
      callback_query: {
        id: `cb${updateId}`,
        from: { id: chatId, is_bot: false, first_name: 'Ada' },
        message: { message_id: 5, date: 0, chat: { id: chatId, type: 'private' } },
        chat_instance: '-4242',
        data,
      },
    },
    e,
  )
  expect(res.status).toBe(200)
  const [answer, ...more] = await standIn.requests(ANSWER_PATH)
  expect(more).toEqual([])
  return (JSON.parse(answer.body) as { text: string }).text
}

/** The user's snoozes: reminders of the 10-minute lead time. */
const snoozesOf = async (userId: string) =>
  (await notificationsOf(userId)).filter((n) => n.payload?.leadMinutes === 10)

/** Opens a snooze link: POST as the service worker does (JSON), or GET / form POST (pages). */
async function open(path: string, e: Env, how: 'json' | 'page' | 'form' = 'json') {
  const res = await call(
    path,
    {
      method: how === 'page' ? 'GET' : 'POST',
      headers: {
        'CF-Connecting-IP': nextIp(),
        Accept: how === 'json' ? 'application/json' : 'text/html,application/xhtml+xml',
        ...(how === 'form' && { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      body: how === 'form' ? '' : undefined,
    },
    e,
  )
  const text = await res.text()
  return { status: res.status, text, body: how === 'json' ? JSON.parse(text) : undefined }
}

const linkFor = async (userId: string, contestId: string, signedAt = Date.now()) =>
  `${SNOOZE}?token=${await snoozeToken(env, { userId, contestId }, signedAt)}`

/** The delay the queue was asked for on each message, with its deliveries. */
const queued = (e: TestEnv) =>
  e.NOTIFICATIONS_QUEUE.bodies.map((body, i) => ({
    ids: body.deliveryIds,
    delaySeconds: e.NOTIFICATIONS_QUEUE.delays[i],
  }))

describe('Telegram’s snooze button', () => {
  it('comes under a reminder; a press makes one reminder 10 minutes before the start, sent then', async () => {
    const e = testEnv()
    const { user, chatId } = await telegramUser(e)
    const [round] = await addContests([contest(3, { name: 'Round 901' })])
    await runScheduler(e)
    await deliverQueued(e)
    const [message] = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(message.reply_markup.inline_keyboard).toContainEqual([
      { text: BUTTON, callback_data: `snooze:${round.id}` },
    ])

    const pressedAt = Date.now()
    expect(await press(chatId, `snooze:${round.id}`, e)).toBe(
      'Done: a reminder of Round 901 comes 10 minutes before it starts.',
    )
    const [snooze, ...more] = await snoozesOf(user.id)
    expect(more).toEqual([])
    expect(snooze).toMatchObject({
      contestId: round.id,
      type: 'CONTEST_REMINDER',
      scheduledAt: round.startTime - 10 * MINUTE_MS,
      dedupeKey: `${round.startTime}:10`,
      channels: ['telegram'],
    })
    // Enqueued with the wait until its moment, as the scheduler enqueues a reminder made ahead.
    const [entry] = queued(e)
    expect(entry.ids).toEqual([snooze.deliveries[0].id])
    const wait = (round.startTime - 10 * MINUTE_MS - pressedAt) / 1000
    expect(entry.delaySeconds).toBeGreaterThan(wait - 5)
    expect(entry.delaySeconds).toBeLessThanOrEqual(Math.ceil(wait))

    // Pressed again: told it is set, nothing more made or enqueued.
    expect(await press(chatId, `snooze:${round.id}`, e)).toBe(
      'A reminder of Round 901 10 minutes before it starts is already set.',
    )
    expect(await snoozesOf(user.id)).toHaveLength(1)
    expect(queued(e)).toHaveLength(1)

    // The queue hands it on at its time: the consumer sends it like any reminder.
    await standIn.reset()
    const [result] = await deliverQueued(e)
    expect(result).toMatchObject({ acked: true, retried: false })
    const [sent, ...others] = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(others).toEqual([])
    expect(sent.chat_id).toBe(String(chatId))
    expect(sent.text).toMatch(/^<b>Reminder: Round 901 starts in/)
    expect((await snoozesOf(user.id))[0]).toMatchObject({ status: 'SENT' })
  })

  it('is left out of a reminder whose contest is 10 minutes away or less', async () => {
    const e = testEnv()
    await telegramUser(e, [10])
    await addContests([contest(9 / 60)])
    await runScheduler(e)
    await deliverQueued(e)
    const [message] = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(message, 'the reminder was sent').toBeDefined()
    const texts = message.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text)
    expect(texts).toEqual(['Follow', 'Mute'])
  })

  it('says in words why not when the contest started or is less than 10 minutes away', async () => {
    const e = testEnv()
    const { user, chatId } = await telegramUser(e)
    const [soon, started] = await addContests([
      contest(9 / 60, { name: 'Round Soon' }),
      contest(-0.5, { name: 'Round Started' }),
    ])
    expect(await press(chatId, `snooze:${soon.id}`, e)).toMatch(
      /^Round Soon starts in (8|9) minutes, less than 10 minutes away: too late for a reminder 10 minutes before\.$/,
    )
    expect(await press(chatId, `snooze:${started.id}`, e)).toBe(
      'Round Started has already started: too late for a reminder before it.',
    )
    expect(await press(chatId + 1, `snooze:${soon.id}`, e)).toMatch(/^Link Telegram/)
    expect(await notificationsOf(user.id)).toEqual([])
  })
})

describe('the push notification’s snooze action', () => {
  it('carries the signed link, which POSTed makes the reminder once, however many press at once', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: false, push: true }, push: true })
    const [round] = await addContests([contest(5, { name: 'Round 902' })])
    await runScheduler(e)
    const { bodies } = await capturePushBodies(() => deliverQueued(e))
    const payload = (await decryptPush([...bodies.values()][0], user.push!)) as Record<string, any>
    expect(payload.actions).toEqual([{ action: 'snooze', title: BUTTON }])
    const url = new URL(payload.data.snoozeUrl)
    expect(url.pathname).toBe(SNOOZE)

    // Pressed on five devices at once: one reminder, one delivery enqueued, the rest told so.
    const presses = await Promise.all(
      Array.from({ length: 5 }, () => open(`${url.pathname}${url.search}`, e)),
    )
    expect(presses.map((p) => p.status).sort()).toEqual([200, 200, 200, 200, 201])
    const made = presses.find((p) => p.status === 201)!.body
    expect(made).toEqual({
      snoozed: true,
      created: true,
      contestId: round.id,
      remindAt: new Date(round.startTime - 10 * MINUTE_MS).toISOString(),
      message: 'Done: a reminder of Round 902 comes 10 minutes before it starts.',
    })
    expect(presses.filter((p) => p.body.created === false)).toHaveLength(4)
    const snoozes = await snoozesOf(user.id)
    expect(snoozes).toHaveLength(1)
    expect(snoozes[0].channels).toEqual(['push'])
    expect(queued(e).flatMap((q) => q.ids)).toEqual([snoozes[0].deliveries[0].id])
  })

  it('answers 409 in the error shape, in words, once the contest is less than 10 minutes away', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: true } })
    const [soon, started] = await addContests([
      contest(5 / 60, { name: 'Round Close' }),
      contest(-1, { name: 'Round Begun' }),
    ])
    const tooClose = await open(await linkFor(user.id, soon.id), e)
    expect(tooClose.status).toBe(409)
    expect(tooClose.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: expect.stringMatching(
        /^Round Close starts in (4|5) minutes, less than 10 minutes away/,
      ),
    })
    const begun = await open(await linkFor(user.id, started.id), e)
    expect(begun.status).toBe(409)
    expect(begun.body.message).toBe(
      'Round Begun has already started: too late for a reminder before it.',
    )
    expect(await notificationsOf(user.id)).toEqual([])
    expect(queued(e)).toEqual([])
  })
})

describe('the email’s snooze link', () => {
  it('is in the reminder; GET shows a page and changes nothing, the page’s form makes the reminder', async () => {
    const e = testEnv()
    const user = await recipient()
    const [round] = await addContests([contest(3, { name: 'Round 903' })])
    await runScheduler(e)
    await deliverQueued(e)
    const [mail] = await mailsTo(user.email)
    const text = mail.message.text as string
    const found = text.match(new RegExp(`${BUTTON}: (\\S+)`))
    expect(found, 'the text carries the snooze link').not.toBeNull()
    const link = new URL(found![1])
    expect(mail.message.html).toContain(`>${BUTTON}</a>`)
    const path = `${link.pathname}${link.search}`

    const shown = await open(path, e, 'page')
    expect(shown.status).toBe(200)
    expect(shown.text).toContain('Round 903')
    expect(shown.text).toContain(`<form method="post" action="${path.replace(/&/g, '&amp;')}">`)
    expect(await snoozesOf(user.id)).toEqual([])

    const done = await open(path, e, 'form')
    expect(done.status).toBe(201)
    expect(done.text).toContain('Done: a reminder of Round 903 comes 10 minutes before it starts.')
    expect(await snoozesOf(user.id)).toHaveLength(1)
    const again = await open(path, e, 'form')
    expect(again.status).toBe(200)
    expect(again.text).toContain('is already set')
    const snoozes = await snoozesOf(user.id)
    expect(snoozes).toHaveLength(1)
    expect(snoozes[0]).toMatchObject({
      contestId: round.id,
      scheduledAt: round.startTime - 10 * MINUTE_MS,
    })
  })

  it('is one with the user’s own 10-minute reminder: the scheduler makes no second one', async () => {
    const e = testEnv()
    const user = await recipient({ leadTimes: [10, 1440] })
    const [round] = await addContests([contest(2)])
    expect((await open(await linkFor(user.id, round.id), e)).status).toBe(201)
    // The run within a period of the 10-minute moment: its reminder is the snooze's.
    await runScheduler(e, round.startTime - 20 * MINUTE_MS)
    expect(await snoozesOf(user.id)).toHaveLength(1)
  })

  it('refuses a forged or changed link with 400 and an expired one with 410, in the error shape', async () => {
    const e = testEnv()
    const user = await recipient()
    const other = await recipient()
    const [round] = await addContests([contest(3)])
    const good = await linkFor(user.id, round.id)
    const token = good.slice(good.indexOf('=') + 1)
    const [, , expires, signature] = token.split('.')
    const forged = [
      // Another person's id under this signature.
      `${other.id}.${round.id}.${expires}.${signature}`,
      // A later expiry under this signature.
      `${user.id}.${round.id}.${Number(expires) + 86_400}.${signature}`,
      `${user.id}.${round.id}.${expires}.${'A'.repeat(43)}`,
      'not-a-token',
      '',
    ]
    for (const t of forged) {
      const res = await open(`${SNOOZE}?token=${t}`, e)
      expect(res.status, t).toBe(400)
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'The snooze link is not valid: it is incomplete or was changed',
      })
    }
    expect((await open(SNOOZE, e)).status).toBe(400)

    const stale = await open(await linkFor(user.id, round.id, Date.now() - SNOOZE_LINK_TTL_MS), e)
    expect(stale.status).toBe(410)
    expect(stale.body).toEqual({
      statusCode: 410,
      error: 'Gone',
      message: 'The snooze link has expired',
    })
    const stalePage = await open(
      await linkFor(user.id, round.id, Date.now() - SNOOZE_LINK_TTL_MS),
      e,
      'page',
    )
    expect(stalePage.status).toBe(410)
    expect(stalePage.text).toContain('This link has expired')
    expect(await notificationsOf(user.id)).toEqual([])
    expect(await notificationsOf(other.id)).toEqual([])

    // The link still good a moment before its end.
    const fresh = await open(
      await linkFor(user.id, round.id, Date.now() - SNOOZE_LINK_TTL_MS + 60_000),
      e,
    )
    expect(fresh.status).toBe(201)
  })

  it('answers 404 for a contest gone from the catalogue and 409 when no channel can carry it', async () => {
    const e = testEnv()
    const user = await recipient({ channels: { email: false } })
    const [round] = await addContests([contest(3)])
    const none = await open(await linkFor(user.id, round.id), e)
    expect(none.status).toBe(409)
    expect(none.body.message).toMatch(/^None of your channels can carry a reminder/)
    await env.DB.prepare('DELETE FROM contests WHERE id = ?').bind(round.id).run()
    const gone = await open(await linkFor(user.id, round.id), e)
    expect(gone.status).toBe(404)
    expect(gone.body.message).toBe('This contest is no longer in the catalogue.')
    expect(await notificationsOf(user.id)).toEqual([])
  })
})
