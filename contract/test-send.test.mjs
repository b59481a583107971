// The test send and the delivery log over HTTP, on the runtime named by CONTRACT_RUNTIME: a test
// send reaches the stand-in once and its answer says what the stand-in answered (delivered, a
// deleted Discord webhook in words), the 4th in an hour is refused with Retry-After, and a queued
// email's attempt shows in the history's delivery log.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RUNTIME, startFlow } from './flow.mjs'
import { holds, hoursFromNow, newCredentials, verifiedAccount, waitFor } from './http.mjs'

const ADMIN_EMAIL = 'test-send-admin@contract.example.test'
const FLOW = { timeout: 60_000 }

let standIn
let api

let hooks = 0
/** A Discord webhook at the stand-in, in Discord's shape. */
function discordHook() {
  const id = `${1_100_000_000_000_000_000n + BigInt(Date.now()) * 10n + BigInt(++hooks)}`
  const token = `contract_${crypto.randomUUID().replace(/-/g, '')}`
  return `/discord/api/webhooks/${id}/${token}`
}

async function withDiscord(label) {
  const user = await verifiedAccount(api, standIn, newCredentials(label))
  const hook = discordHook()
  const set = await api.put(
    '/users/profile',
    { preferences: { discordWebhookUrl: `${standIn.url}${hook}` } },
    { token: user.accessToken },
  )
  assert.equal(set.status, 200, JSON.stringify(set.body))
  return { user, hook }
}

const testSend = (user, channel) =>
  api.post('/users/test-notification', { channel }, { token: user.accessToken })

describe(`test sends and the delivery log (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'test-send',
    adminEmails: ADMIN_EMAIL,
    ready(flow) {
      ;({ standIn, api } = flow)
    },
  })

  test(
    'a test send reaches the Discord webhook once and answers "Discord: delivered"',
    FLOW,
    noted(async () => {
      const { user, hook } = await withDiscord('test-send')
      const res = await testSend(user, 'discord')
      assert.equal(res.status, 200, JSON.stringify(res.body))
      assert.equal(res.body.channel, 'discord')
      assert.equal(res.body.outcome, 'delivered')
      assert.equal(res.body.message, 'Discord: delivered')
      assert.equal(res.headers.get('x-ratelimit-limit'), '3')
      const posts = await standIn.requests(hook)
      assert.equal(posts.length, 1)
      assert.match(JSON.parse(posts[0].body).embeds[0].description, /test message/)
      await holds('one Discord post', async () => (await standIn.requests(hook)).length === 1, {
        forMs: 1_000,
      })
    }),
  )

  test(
    'a deleted webhook is said in words, and the 4th test in an hour is 429 with Retry-After',
    FLOW,
    noted(async () => {
      const { user, hook } = await withDiscord('test-send-deleted')
      await standIn.script({
        method: 'POST',
        pathPrefix: hook,
        responses: [{ status: 404, body: { message: 'Unknown Webhook', code: 10015 } }],
      })
      const res = await testSend(user, 'discord')
      assert.equal(res.status, 200, JSON.stringify(res.body))
      assert.equal(res.body.outcome, 'destination_gone')
      assert.equal(res.body.message, 'Discord: the webhook was deleted')
      assert.equal((await standIn.requests(hook)).length, 1)
      // The dead webhook is forgotten as a reminder's send forgets it: nowhere to test now.
      const again = await testSend(user, 'discord')
      assert.equal(again.status, 400)
      assert.equal(again.body.message, 'The account has no Discord webhook')

      for (let i = 0; i < 3; i++) assert.equal((await testSend(user, 'email')).status, 200)
      const fourth = await testSend(user, 'email')
      assert.equal(fourth.status, 429)
      assert.deepEqual(fourth.body, {
        statusCode: 429,
        message: 'Too Many Requests',
        error: 'Too Many Requests',
      })
      assert.ok(Number(fourth.headers.get('retry-after')) > 0)
      const mails = await standIn.mailsTo(user.email)
      assert.equal(
        mails.filter((m) => m.message.subject === 'Contest Alerts test message').length,
        3,
      )
    }),
  )

  test(
    'a queued email’s attempt shows in the history’s delivery log',
    FLOW,
    noted(async () => {
      const admin = await verifiedAccount(api, standIn, {
        email: ADMIN_EMAIL,
        password: `pw-${crypto.randomUUID()}`,
        name: 'Contract Admin',
      })
      const user = await verifiedAccount(api, standIn, newCredentials('delivery-log'))
      const contest = await api.post(
        '/contests',
        {
          platformId: 'contract-log-1',
          name: 'Delivery Log Starters',
          platform: 'codechef',
          type: 'STARTERS',
          startTime: hoursFromNow(200),
          endTime: hoursFromNow(202),
        },
        { token: admin.accessToken },
      )
      assert.equal(contest.status, 201, JSON.stringify(contest.body))
      const queued = await api.post(
        '/notifications/emails/contest-reminder',
        { contestId: contest.body.id, userIds: [user.id] },
        { token: admin.accessToken },
      )
      assert.ok(queued.status < 300, JSON.stringify(queued.body))
      const email = await waitFor(
        'the email delivery with its logged attempt',
        async () => {
          const res = await api.get('/notifications/notifications?channel=email', {
            token: user.accessToken,
          })
          const d = res.body.notifications?.[0]?.deliveryStatus.find((x) => x.channel === 'email')
          return d?.attempts?.length > 0 && d
        },
        { timeoutMs: 30_000 },
      )
      assert.equal(email.status, 'SENT')
      assert.deepEqual(
        email.attempts.map((a) => [a.outcome, a.message]),
        [['delivered', 'Email: accepted by Resend for delivery']],
      )
      const none = await api.get('/notifications/notifications?channel=telegram', {
        token: user.accessToken,
      })
      assert.equal(none.body.pagination.total, 0)
    }),
  )
})
