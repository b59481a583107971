// Telegram forum topics: in a supergroup with topics, /subscribe sent in a topic subscribes that
// topic (its message_thread_id), so each topic takes its own judges; every post to it carries the
// topic, a topic closed or deleted ends that destination with Telegram's words (and no other of
// the group), and the Communities page lists the topics under their group.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { announceDue } from '../src/communities/announce.ts'
import { findDestination } from '../src/communities/destinations.ts'
import { createDb } from '../src/db/client.ts'
import { addContests, contest } from './helpers/contests.ts'
import { consume, PROVIDERS, resetNotifications, testEnv } from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { select } from './helpers/html.ts'
import { api, createUser } from './helpers/users.ts'
import { expectPage, signedInBrowser } from './helpers/web-app.ts'

const TOKEN = PROVIDERS.TELEGRAM_BOT_TOKEN!
const SEND_PATH = `/telegram/bot${TOKEN}/sendMessage`
const MEMBER_PATH = `/telegram/bot${TOKEN}/getChatMember`

let nextChat = -1_003_100_000_000
let updateId = 70_000

beforeEach(async () => {
  await resetNotifications()
  await standIn.reset()
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

const db = () => createDb(env.DB)

/** Calls the Bot API stand-in as the group's members would (making, closing topics). */
async function botApi(method: string, body: object) {
  const res = await fetch(`${standInUrl}/telegram/bot${TOKEN}/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await res.json()) as { ok: boolean; result: { message_thread_id: number } }
}

/** A forum supergroup with topics of these names: the chat id and each topic's thread id. */
async function forum(...names: string[]) {
  const chatId = --nextChat
  const threads: Record<string, number> = {}
  for (const name of names) {
    threads[name] = (
      await botApi('createForumTopic', { chat_id: chatId, name })
    ).result.message_thread_id
  }
  return { chatId, threads }
}

/** An administrator's command sent in the topic (or in the General topic without one). */
async function command(chatId: number, text: string, topic?: { id: number; name: string }) {
  await standIn.script({
    method: 'POST',
    pathPrefix: MEMBER_PATH,
    responses: ['administrator', 'member'].map((status) => ({
      status: 200,
      body: { ok: true, result: { status } },
    })),
  })
  const before = (await standIn.requests(SEND_PATH)).length
  const chat = { id: chatId, type: 'supergroup', title: 'CP Club', is_forum: true }
  const inTopic = topic && {
    message_thread_id: topic.id,
    is_topic_message: true,
    // Telegram's message in a topic replies to the topic's first message, which names it.
    reply_to_message: {
      message_id: topic.id,
      date: 0,
      chat,
      message_thread_id: topic.id,
      forum_topic_created: { name: topic.name, icon_color: 7322096 },
    },
  }
  const res = await api('POST', '/telegram/webhook', {
    body: {
      update_id: ++updateId,
      message: {
        message_id: updateId,
        date: 0,
        chat,
        from: { id: 77, is_bot: false },
        text,
        ...inTopic,
      },
    },
    bindings: testEnv(),
    headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
  })
  expect(res.status).toBe(200)
  return (await standIn.requests(SEND_PATH)).slice(before).map((r) => JSON.parse(r.body))
}

async function deliverAll(e: ReturnType<typeof testEnv>) {
  const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  return consume(
    e,
    bodies.map((body) => ({ body, attempts: 1 })),
  )
}

async function twoTopics() {
  const { chatId, threads } = await forum('Codeforces', 'AtCoder')
  const cf = { id: threads.Codeforces, name: 'Codeforces' }
  const ac = { id: threads.AtCoder, name: 'AtCoder' }
  const [cfReply] = await command(chatId, '/subscribe codeforces', cf)
  const [acReply] = await command(chatId, '/subscribe atcoder', ac)
  return { chatId, cf, ac, cfReply, acReply }
}

describe('a forum topic', () => {
  it('is subscribed on its own from inside it, and answered there', async () => {
    const { chatId, cf, ac, cfReply, acReply } = await twoTopics()
    // The replies went to the topic each command came from.
    expect(cfReply).toMatchObject({ chat_id: String(chatId), message_thread_id: cf.id })
    expect(cfReply.text).toContain('Topic: Codeforces.')
    expect(cfReply.text).toContain('Announcements here: Codeforces.')
    expect(acReply).toMatchObject({ message_thread_id: ac.id })
    const place = { channel: 'telegram' as const, chatId: String(chatId) }
    expect(await findDestination(db(), { ...place, threadId: String(cf.id) })).toMatchObject({
      platforms: ['codeforces'],
      threadTitle: 'Codeforces',
    })
    expect(await findDestination(db(), { ...place, threadId: String(ac.id) })).toMatchObject({
      platforms: ['atcoder'],
      threadTitle: 'AtCoder',
    })
    // The group as a whole has nothing of its own.
    expect(await findDestination(db(), place)).toBe(undefined)
    // A reply thread outside a forum (no is_topic_message) is the chat itself.
    const plain = --nextChat
    await standIn.script({
      method: 'POST',
      pathPrefix: MEMBER_PATH,
      responses: [{ status: 200, body: { ok: true, result: { status: 'administrator' } } }],
    })
    await api('POST', '/telegram/webhook', {
      body: {
        update_id: ++updateId,
        message: {
          message_id: updateId,
          date: 0,
          chat: { id: plain, type: 'supergroup', title: 'Plain' },
          from: { id: 77, is_bot: false },
          text: '/subscribe leetcode',
          message_thread_id: 5,
        },
      },
      bindings: testEnv(),
      headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
    })
    expect(
      await findDestination(db(), { channel: 'telegram', chatId: String(plain) }),
    ).toMatchObject({ threadId: '', platforms: ['leetcode'] })
  })

  it('gets only its own judge, each post carrying its message_thread_id', async () => {
    const e = testEnv()
    const { chatId, cf, ac } = await twoTopics()
    await addContests([
      contest(0.75, { name: 'Codeforces Round 1' }),
      contest(0.75, { platform: 'atcoder', type: 'ABC', name: 'AtCoder Beginner Contest 1' }),
    ])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await standIn.reset()
    await deliverAll(e)
    const posts = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    const byThread = Object.fromEntries(posts.map((p) => [p.message_thread_id, p.text]))
    expect(posts.map((p) => p.chat_id)).toEqual([String(chatId), String(chatId)])
    expect(Object.keys(byThread).sort()).toEqual([String(cf.id), String(ac.id)].sort())
    expect(byThread[cf.id]).toContain('Codeforces Round 1')
    expect(byThread[ac.id]).toContain('AtCoder Beginner Contest 1')
  })

  it('ends with Telegram’s words when closed or deleted, and the group’s other topics go on', async () => {
    const e = testEnv()
    const { chatId, threads } = await forum('Codeforces', 'AtCoder', 'LeetCode')
    const topics = Object.entries(threads).map(([name, id]) => ({ name, id }))
    for (const topic of topics) await command(chatId, '/subscribe codeforces', topic)
    await botApi('closeForumTopic', { chat_id: chatId, message_thread_id: threads.Codeforces })
    await botApi('deleteForumTopic', { chat_id: chatId, message_thread_id: threads.AtCoder })
    await addContests([contest(0.75, { name: 'Round For Every Topic' })])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    const place = (name: string) =>
      findDestination(db(), {
        channel: 'telegram',
        chatId: String(chatId),
        threadId: String(threads[name]),
      })
    expect((await place('Codeforces'))?.deadReason).toBe(
      'Telegram answered 400: Bad Request: TOPIC_CLOSED',
    )
    expect((await place('AtCoder'))?.deadReason).toBe(
      'Telegram answered 400: Bad Request: TOPIC_DELETED',
    )
    expect(await place('LeetCode')).toMatchObject({ deadAt: null })
    const statuses = await env.DB.prepare(
      `SELECT d.thread_id AS thread, a.status FROM community_announcements a
        JOIN community_destinations d ON d.id = a.destination_id`,
    ).all<{ thread: string; status: string }>()
    expect(Object.fromEntries(statuses.results.map((r) => [r.thread, r.status]))).toEqual({
      [threads.Codeforces]: 'FAILED',
      [threads.AtCoder]: 'FAILED',
      [threads.LeetCode]: 'SENT',
    })
  })

  it('that Telegram never knew is "message thread not found", which ends it', async () => {
    const e = testEnv()
    const chatId = --nextChat
    await command(chatId, '/subscribe codeforces', { id: 4242, name: 'Gone' })
    await addContests([contest(0.75)])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await deliverAll(e)
    const row = await findDestination(db(), {
      channel: 'telegram',
      chatId: String(chatId),
      threadId: '4242',
    })
    expect(row?.deadReason).toBe('Telegram answered 400: Bad Request: message thread not found')
  })
})

describe('the Communities page and API', () => {
  it('list a group’s topics under the group', async () => {
    const { chatId, cf, ac } = await twoTopics()
    const owner = await createUser()
    await env.DB.prepare('UPDATE community_destinations SET owner_id = ?').bind(owner.id).run()
    const listed = await api('GET', '/communities', { token: owner.accessToken })
    const communities = listed.body.communities as {
      chatId: string
      threadId: string | null
      threadTitle: string | null
    }[]
    expect(
      communities
        .map((c) => [c.chatId, c.threadId, c.threadTitle])
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    ).toEqual([
      [String(chatId), String(ac.id), 'AtCoder'],
      [String(chatId), String(cf.id), 'Codeforces'],
    ])
    const browser = await signedInBrowser(owner)
    const page = await browser.get('/app/communities')
    expectPage(page, 200)
    const group = `li.community-group[data-chat-id="${chatId}"]`
    expect(await select(page.html, group)).toHaveLength(1)
    expect((await select(page.html, `${group} > h3`)).map((h) => h.text.trim())).toEqual([
      'Telegram: CP Club',
    ])
    expect((await select(page.html, `${group} li.community h4`)).map((h) => h.text.trim())).toEqual(
      ['Topic: AtCoder', 'Topic: Codeforces'],
    )
  })
})
