// The Slack channel: the webhook preference (hooks.slack.com only, masked, removed with null),
// reminders posted to the stand-in's incoming webhook as Block Kit, and what Slack's answers mean:
// a dead webhook (403, 404, 410) is forgotten with its block, 429 waits, other 4xx fail alone.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from './helpers/contests.ts'
import {
  attemptAt,
  consume,
  deliverQueued,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'
import type { Env } from '../src/env.ts'
import { blockKitMessage } from '../src/channels/slack/block-kit.ts'
import { readSlackAnswer } from '../src/channels/slack/incoming-webhook.ts'

beforeEach(resetNotifications)

const REAL_URL = 'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/SecretToken123'
// The stand-in is a loopback address: only a local run (ALLOW_LOCAL_TARGETS) may reach it.
const LOCAL = { ALLOW_LOCAL_TARGETS: 'true' } satisfies Partial<Env>

let seq = 0
/** A fresh incoming webhook at the stand-in, in Slack's shape. */
function slackWebhook() {
  seq++
  const path = `/slack/services/T0TEST${seq}/B0HOOK${seq}/secret${seq}${Date.now()}`
  return { path, url: `${standInUrl}${path}` }
}

const setWebhook = (user: TestUser, url: unknown, bindings: Partial<Env> = LOCAL) =>
  api('PUT', '/users/profile', {
    token: user.accessToken,
    body: { preferences: { slackWebhookUrl: url } },
    bindings,
  })

const profileOf = async (user: TestUser) =>
  (await api('GET', '/users/profile', { token: user.accessToken })).body

const storedUrl = async (userId: string) =>
  (
    await env.DB.prepare('SELECT slack_webhook_url AS url FROM users WHERE id = ?')
      .bind(userId)
      .first<{ url: string | null }>()
  )?.url

const slackPosts = async (path: string) =>
  (await standIn.requests(path)).map((r) => ({ ...r, json: JSON.parse(r.body) }))

const slackDelivery = async (userId: string) =>
  (await notificationsOf(userId))[0]?.deliveries.find(
    (d: { channel: string }) => d.channel === 'slack',
  )

/** A reminder recipient on Slack (and email if asked), with a fresh webhook at the stand-in. */
async function slackRecipient(email = false) {
  const user = await recipient({ channels: { email } })
  const webhook = slackWebhook()
  expect((await setWebhook(user, webhook.url)).status).toBe(200)
  return { user, webhook }
}

const scriptAnswer = (path: string, status: number, body: string, headers = {}) =>
  standIn.script({
    method: 'POST',
    pathPrefix: path,
    responses: [{ status, body, headers: { 'content-type': 'text/plain', ...headers } }],
  })

describe('the slackWebhookUrl preference', () => {
  it('stores the URL, shows it without its secret, turns Slack on, and null removes it', async () => {
    const user = await createUser()
    const set = await setWebhook(user, REAL_URL, {})
    expect(set.status).toBe(200)
    expect(set.body.preferences.notificationChannels.slack).toBe(true)
    expect(JSON.stringify(set.body)).not.toContain('SecretToken123')
    const profile = await profileOf(user)
    expect(profile.slack).toEqual({
      webhookSet: true,
      maskedWebhookUrl: 'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/…',
    })
    expect(JSON.stringify(profile)).not.toContain('SecretToken123')
    expect(await storedUrl(user.id)).toBe(REAL_URL)

    const removed = await setWebhook(user, null, {})
    expect(removed.body.preferences.notificationChannels.slack).toBe(false)
    expect((await profileOf(user)).slack).toEqual({ webhookSet: false, maskedWebhookUrl: null })
    expect(await storedUrl(user.id)).toBeNull()
  })

  it('refuses every host but hooks.slack.com, http, other paths, a query and long URLs', async () => {
    const user = await createUser()
    const notAWebhook =
      'slackWebhookUrl must be a Slack webhook URL (https://hooks.slack.com/services/T…/B…/…)'
    const refused: [unknown, string][] = [
      ['https://hooks.slack.com.example.com/services/T01/B01/abc', notAWebhook],
      ['https://slack.com/services/T01/B01/abc', notAWebhook],
      ['https://example.com/services/T01/B01/abc', notAWebhook],
      ['http://hooks.slack.com/services/T01/B01/abc', notAWebhook],
      ['https://hooks.slack.com:8443/services/T01/B01/abc', notAWebhook],
      ['https://hooks.slack.com/workflows/T01/A01/123/abc', notAWebhook],
      ['https://hooks.slack.com/services/T01/B01', notAWebhook],
      ['https://hooks.slack.com/services/T01/B01/abc/extra', notAWebhook],
      [
        'https://hooks.slack.com/services/T01/B01/abc?x=1',
        'slackWebhookUrl must not have a query string or fragment',
      ],
      [
        'https://u:p@hooks.slack.com/services/T01/B01/abc',
        'slackWebhookUrl must not contain credentials',
      ],
      // The stand-in's loopback address, outside a local run.
      [slackWebhook().url, notAWebhook],
      [
        `https://hooks.slack.com/services/T01/B01/${'a'.repeat(520)}`,
        'slackWebhookUrl must be at most 512 characters long',
      ],
      [7, 'slackWebhookUrl must be a string or null'],
    ]
    for (const [url, message] of refused) {
      const res = await setWebhook(user, url, {})
      expect(res.status, String(url)).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, message: [message], error: 'Bad Request' })
    }
    expect(await storedUrl(user.id)).toBeNull()
  })
})

describe('Slack deliveries', () => {
  it('post a reminder once as Block Kit: header, summary, start, button', async () => {
    const e = testEnv()
    const { user, webhook } = await slackRecipient()
    const [round] = await addContests([
      contest(3, {
        name: 'AtCoder <Beginner> & Co',
        websiteUrl: 'https://atcoder.jp/contests/abc1',
      }),
    ])
    await runScheduler(e)
    expect((await deliverQueued(e))[0]).toMatchObject({ acked: true, retried: false })

    const posts = await slackPosts(webhook.path)
    expect(posts).toHaveLength(1)
    expect(posts[0].status).toBe(200)
    const { text, blocks, unfurl_links } = posts[0].json
    expect(unfurl_links).toBe(false)
    // The fallback is mrkdwn too: escaped like the section.
    expect(text).toMatch(/^Reminder: AtCoder &lt;Beginner&gt; &amp; Co starts in/)
    expect(blocks.map((b: { type: string }) => b.type)).toEqual([
      'header',
      'section',
      'context',
      'actions',
    ])
    expect(blocks[0].text).toEqual({ type: 'plain_text', text: expect.stringMatching(/^Reminder/) })
    // mrkdwn reads <, > and & as markup: the contest's name arrives escaped.
    expect(blocks[1].text.type).toBe('mrkdwn')
    expect(blocks[1].text.text).toContain('AtCoder &lt;Beginner&gt; &amp; Co')
    const seconds = Math.floor(round.startTime / 1000)
    expect(blocks[2].elements[0].text).toContain(`<!date^${seconds}^`)
    expect(blocks[3].elements[0]).toMatchObject({
      type: 'button',
      url: 'https://atcoder.jp/contests/abc1',
    })
    expect(await slackDelivery(user.id)).toMatchObject({ status: 'SENT', attempts: 1 })

    // The next run finds the reminder made: nothing is posted again.
    await runScheduler(e)
    expect(await deliverQueued(e)).toEqual([])
    expect(await slackPosts(webhook.path)).toHaveLength(1)
  })

  it('escape a contest name holding a channel ping or a disguised link, in the fallback text too', async () => {
    const e = testEnv()
    const { webhook } = await slackRecipient()
    await addContests([contest(3, { name: 'Round <!channel> <https://evil.example|Open>' })])
    await runScheduler(e)
    await deliverQueued(e)

    const [post] = await slackPosts(webhook.path)
    expect(post.status).toBe(200)
    const { text, blocks } = post.json
    const escaped = 'Round &lt;!channel&gt; &lt;https://evil.example|Open&gt;'
    expect(text).toContain(escaped)
    expect(blocks[1].text.text).toContain(escaped)
    // Nothing Slack would read as a mention or a link, but the start date Slack formats.
    const markup = JSON.stringify([text, blocks[1].text.text]).match(/<[^>]*>/g) ?? []
    expect(markup).toEqual([])
  })

  for (const [status, code] of [
    [404, 'no_service'],
    [410, 'channel_is_archived'],
    [403, 'action_prohibited'],
  ] as const) {
    it(`forget a webhook Slack answers ${status} ${code}, with the block, once`, async () => {
      const e = testEnv()
      const { user, webhook } = await slackRecipient(true)
      await scriptAnswer(webhook.path, status, code)
      await addContests([contest(3)])
      await runScheduler(e)
      await deliverQueued(e)
      expect(await slackDelivery(user.id)).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        error: `Slack answered ${status}: ${code}`,
      })
      const profile = await profileOf(user)
      expect(profile.channelStatus).toEqual({
        slack: { blocked: true, reason: 'webhook-unknown', since: expect.any(String) },
      })
      expect(profile.preferences.notificationChannels.slack).toBe(false)
      expect(profile.slack).toEqual({ webhookSet: false, maskedWebhookUrl: null })

      // A new webhook turns it on again and clears the block.
      const fresh = slackWebhook()
      expect((await setWebhook(user, fresh.url)).body.preferences.notificationChannels.slack).toBe(
        true,
      )
      expect((await profileOf(user)).channelStatus).toEqual({})
    })
  }

  it('retry a 429 no sooner than its Retry-After, and fail a 400 alone, leaving Slack on', async () => {
    const e = testEnv()
    const { user, webhook } = await slackRecipient()
    await scriptAnswer(webhook.path, 429, 'rate_limited', { 'retry-after': '45' })
    await addContests([contest(3)])
    await runScheduler(e)
    const message = { body: e.NOTIFICATIONS_QUEUE.bodies.splice(0)[0], attempts: 1 }
    const [first] = await consume(e, [message])
    expect(first).toMatchObject({ retried: true })
    expect(first.delaySeconds).toBeGreaterThanOrEqual(45)
    expect(await slackDelivery(user.id)).toMatchObject({ status: 'RETRYING', retryCount: 1 })

    await scriptAnswer(webhook.path, 400, 'invalid_payload')
    // Sooner than the 45 s, the message sends nothing and waits again.
    const [early] = await consume(e, [{ ...message, attempts: 2 }])
    expect(early).toMatchObject({ acked: true, retried: false })
    expect(await slackDelivery(user.id)).toMatchObject({ status: 'RETRYING', retryCount: 1 })
    expect(await attemptAt(e, message.body, Date.now() + 61_000)).toMatchObject([
      { kind: 'failed' },
    ])
    expect(await slackDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Slack answered 400: invalid_payload',
    })
    const profile = await profileOf(user)
    expect(profile.channelStatus).toEqual({})
    expect(profile.preferences.notificationChannels.slack).toBe(true)
  })

  it('leave Slack out of new notifications while SLACK_ENABLED=false', async () => {
    const { user, webhook } = await slackRecipient(true)
    await addContests([contest(3)])
    const e = testEnv({ SLACK_ENABLED: 'false' })
    await runScheduler(e)
    const [notification] = await notificationsOf(user.id)
    expect(notification.channels).not.toContain('slack')
    expect(await slackPosts(webhook.path)).toEqual([])
  })
})

describe('Block Kit and Slack’s answers', () => {
  it('clips the header to 150 characters and leaves out what the notification lacks', () => {
    const message = blockKitMessage({
      notificationId: 'n1',
      type: 'SYSTEM_ALERT',
      headline: 'x'.repeat(400),
      summary: 'plain',
      now: 0,
    })
    expect(message.blocks).toHaveLength(2)
    expect((message.blocks[0].text as { text: string }).text).toHaveLength(150)
  })

  it('reads 2xx as sent, 429 and 5xx as transient, 403/404/410 as dead, other 4xx as permanent', () => {
    expect(readSlackAnswer(200, 'ok', null)).toEqual({ ok: true })
    expect(readSlackAnswer(429, 'rate_limited', '2.5')).toMatchObject({
      failure: 'transient',
      retryAfterSeconds: 3,
    })
    expect(readSlackAnswer(500, 'rollup_error', null)).toMatchObject({ failure: 'transient' })
    for (const status of [403, 404, 410]) {
      expect(readSlackAnswer(status, 'x', null)).toMatchObject({ failure: 'dead' })
    }
    expect(readSlackAnswer(400, 'invalid_blocks', null)).toMatchObject({ failure: 'permanent' })
  })
})
