// Communities over HTTP on a running service: a forum supergroup's topics each subscribed from
// inside them (/subscribe in the topic), each getting only its own judge's announcements in that
// topic (message_thread_id), and an announced contest that moves edited in place once
// (editMessageText), however many scheduler runs follow.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RUNTIME, startFlow } from './flow.mjs'
import { holds, hoursFromNow, waitFor } from './http.mjs'

const ADMIN_EMAIL = 'contract-follow-admin@contract.example.test'
const BOT_TOKEN = '700000002:contract-follow-token'
const BOT_USERNAME = 'ContractFollowBot'
const WEBHOOK_SECRET = 'contract_follow_secret'
const SCHEDULER_CRON = '*/30 * * * *'
const FORUM = { id: -1005550000001, type: 'supergroup', title: 'Forum Club', is_forum: true }
const FLOW = { timeout: 90_000 }

let standIn
let service
let api
let admin
const topics = {}
const contests = {}

const bot = (method) => `/telegram/bot${BOT_TOKEN}/${method}`

/** The Bot API stand-in called as the group's members would (making its topics). */
async function botApi(method, body) {
  const res = await fetch(`${standIn.url}${bot(method)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return res.json()
}

/** A command sent by the group's administrator inside the topic. */
function inTopic(topic, text) {
  return api.post(
    '/telegram/webhook',
    {
      update_id: Date.now(),
      message: {
        message_id: Date.now() % 1_000_000,
        date: Math.floor(Date.now() / 1000),
        from: { id: 601, is_bot: false, first_name: 'Grace' },
        chat: FORUM,
        message_thread_id: topic.id,
        is_topic_message: true,
        reply_to_message: {
          message_id: topic.id,
          date: 0,
          chat: FORUM,
          forum_topic_created: { name: topic.name, icon_color: 7322096 },
        },
        text,
      },
    },
    { headers: { 'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET } },
  )
}

const sends = async () =>
  (await standIn.requests(bot('sendMessage'))).map((r) => JSON.parse(r.body))

describe(`contract communities follow (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'follow',
    admin: { email: ADMIN_EMAIL, name: 'Contract Follow Admin' },
    settings: ({ url }) => ({
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_BOT_USERNAME: BOT_USERNAME,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_API_URL: `${url}/telegram`,
    }),
    ready(flow) {
      ;({ standIn, service, api, admin } = flow)
    },
  })

  test(
    'Telegram: each forum topic gets only its own judge, in that topic',
    FLOW,
    noted(async () => {
      for (const name of ['Codeforces', 'AtCoder']) {
        const made = await botApi('createForumTopic', { chat_id: FORUM.id, name })
        assert.equal(made.ok, true, JSON.stringify(made))
        topics[name] = { id: made.result.message_thread_id, name }
      }
      // The sender administers the group, whatever it is asked.
      await standIn.script({
        method: 'POST',
        pathPrefix: bot('getChatMember'),
        responses: [
          {
            status: 200,
            body: { ok: true, result: { status: 'administrator', user: { id: 601 } } },
          },
        ],
      })
      assert.equal((await inTopic(topics.Codeforces, '/subscribe codeforces')).status, 200)
      assert.equal((await inTopic(topics.AtCoder, '/subscribe atcoder')).status, 200)
      const replies = await waitFor('both topics’ replies', async () => {
        const found = (await sends()).filter((s) => s.text.includes('Subscribed'))
        return found.length === 2 && found
      })
      assert.deepEqual(
        replies.map((r) => r.message_thread_id).sort(),
        [topics.Codeforces.id, topics.AtCoder.id].sort(),
      )

      for (const [platform, name, type] of [
        ['codeforces', 'Contract Topic Round', 'CF'],
        ['atcoder', 'Contract Topic Beginner Contest', 'ABC'],
      ]) {
        const added = await api.post(
          '/contests',
          {
            platform,
            platformId: `contract-follow-${platform}`,
            name,
            type,
            startTime: hoursFromNow(0.75),
            endTime: hoursFromNow(2.75),
          },
          { token: admin.accessToken },
        )
        assert.equal(added.status, 201, JSON.stringify(added.body))
        contests[platform] = added.body
      }
      await service.fireCron(SCHEDULER_CRON)
      const announced = async () => (await sends()).filter((s) => s.text.includes(' starts '))
      const posts = await waitFor(
        'an announcement in each topic',
        async () => {
          const found = await announced()
          return found.length >= 2 && found
        },
        { timeoutMs: 30_000, describe: sends },
      )
      const where = Object.fromEntries(posts.map((p) => [p.message_thread_id, p.text]))
      assert.equal(String(posts[0].chat_id), String(FORUM.id))
      assert.match(where[topics.Codeforces.id], /Contract Topic Round/)
      assert.doesNotMatch(where[topics.Codeforces.id], /Beginner/)
      assert.match(where[topics.AtCoder.id], /Contract Topic Beginner Contest/)
      await holds('one announcement a topic', async () => (await announced()).length === 2)
    }),
  )

  test(
    'Telegram: an announced contest that moves is edited in place once',
    FLOW,
    noted(async () => {
      const round = contests.codeforces
      assert.ok(round, 'the topics flow announced the round')
      const [post] = (await standIn.requests(bot('sendMessage'))).filter((r) =>
        r.body.includes('Contract Topic Round starts'),
      )
      const announcedId = post.answer.result.message_id
      const moved = await api.patch(
        `/contests/${round.id}`,
        { startTime: hoursFromNow(3), endTime: hoursFromNow(5) },
        { token: admin.accessToken },
      )
      assert.equal(moved.status, 200, JSON.stringify(moved.body))
      await service.fireCron(SCHEDULER_CRON)
      await service.fireCron(SCHEDULER_CRON)
      const edits = async () =>
        (await standIn.requests(bot('editMessageText'))).map((r) => ({
          ...JSON.parse(r.body),
          status: r.status,
        }))
      const [edit] = await waitFor('the edit', async () => {
        const found = await edits()
        return found.length > 0 && found
      })
      assert.equal(String(edit.chat_id), String(FORUM.id))
      assert.equal(edit.status, 200)
      assert.match(edit.text, /Contract Topic Round moved: it starts/)
      // The message edited is the announcement the topic received.
      assert.equal(edit.message_id, announcedId)
      await service.fireCron(SCHEDULER_CRON)
      await holds('one edit', async () => (await edits()).length === 1)
    }),
  )
})
