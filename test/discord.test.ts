// The Discord channel: the webhook preference (rules, masking, removal), reminders posted to the
// stand-in's execute webhook, and what a deleted webhook, a rate limit and a disabled channel do.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { readWebhookAnswer, sendDiscord } from '../src/channels/discord/webhook.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { blockDeadDestination } from '../src/users/channel-blocks.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  discordPosts,
  discordWebhook,
  scriptRateLimited,
  scriptUnknownWebhook,
} from './helpers/discord.ts'
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
import { standIn } from './helpers/stand-in.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'

beforeEach(resetNotifications)

const REAL_URL = 'https://discord.com/api/webhooks/123456789012345678/Secret-Token_abc123'
// The stand-in is a loopback address: only a local run (ALLOW_LOCAL_TARGETS) may reach it.
const LOCAL = { ALLOW_LOCAL_TARGETS: 'true' } satisfies Partial<Env>

const setWebhook = (user: TestUser, url: string | null, bindings: Partial<Env> = LOCAL) =>
  api('PUT', '/users/profile', {
    token: user.accessToken,
    body: { preferences: { discordWebhookUrl: url } },
    bindings,
  })

const profileOf = async (user: TestUser) =>
  (await api('GET', '/users/profile', { token: user.accessToken })).body

const storedUrl = async (userId: string) =>
  (
    await env.DB.prepare('SELECT discord_webhook_url AS url FROM users WHERE id = ?')
      .bind(userId)
      .first<{ url: string | null }>()
  )?.url

/** A reminder recipient on Discord (and email if asked), with a fresh webhook at the stand-in. */
async function discordRecipient(email = false) {
  const user = await recipient({ channels: { email } })
  const webhook = discordWebhook()
  expect((await setWebhook(user, webhook.url)).status).toBe(200)
  return { user, webhook }
}

const discordDelivery = async (userId: string, index = 0) =>
  (await notificationsOf(userId))[index]?.deliveries.find(
    (d: { channel: string }) => d.channel === 'discord',
  )

describe('the discordWebhookUrl preference', () => {
  it('stores the URL, shows it without its token, turns Discord on, and null removes it', async () => {
    const user = await createUser()
    const set = await setWebhook(user, REAL_URL, {})
    expect(set.status).toBe(200)
    expect(set.body.preferences.notificationChannels.discord).toBe(true)
    expect(JSON.stringify(set.body)).not.toContain('Secret-Token_abc123')
    const profile = await profileOf(user)
    expect(profile.discord).toEqual({
      webhookSet: true,
      maskedWebhookUrl: 'https://discord.com/api/webhooks/123456789012345678/…',
    })
    expect(JSON.stringify(profile)).not.toContain('Secret-Token_abc123')
    expect(await storedUrl(user.id)).toBe(REAL_URL)

    const removed = await setWebhook(user, null, {})
    expect(removed.status).toBe(200)
    expect(removed.body.preferences.notificationChannels.discord).toBe(false)
    expect((await profileOf(user)).discord).toEqual({ webhookSet: false, maskedWebhookUrl: null })
    expect(await storedUrl(user.id)).toBeNull()
  })

  it('leaves the Discord switch to notificationChannels when the same update sends them', async () => {
    const user = await createUser()
    const res = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: {
        preferences: { discordWebhookUrl: REAL_URL, notificationChannels: { email: true } },
      },
    })
    expect(res.body.preferences.notificationChannels.discord).toBe(false)
    expect(await storedUrl(user.id)).toBe(REAL_URL)
  })

  it('refuses other hosts, http, other paths, a query, credentials and long URLs', async () => {
    const user = await createUser()
    const notAWebhook =
      'discordWebhookUrl must be a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>)'
    const id = '123456789012345678'
    const refused: [unknown, string][] = [
      [`https://example.com/api/webhooks/${id}/token`, notAWebhook],
      [`https://discord.com.example.com/api/webhooks/${id}/token`, notAWebhook],
      [`http://discord.com/api/webhooks/${id}/token`, notAWebhook],
      [`https://discord.com:8443/api/webhooks/${id}/token`, notAWebhook],
      [`https://discord.com/api/v10/webhooks/${id}/token`, notAWebhook],
      [`https://discord.com/api/webhooks/${id}`, notAWebhook],
      [`https://discord.com/api/webhooks/${id}/token/slack`, notAWebhook],
      [`https://discord.com/channels/${id}/${id}`, notAWebhook],
      [
        `https://discord.com/api/webhooks/${id}/token?thread_id=1`,
        'discordWebhookUrl must not have a query string or fragment',
      ],
      [
        `https://discord.com/api/webhooks/${id}/token?`,
        'discordWebhookUrl must not have a query string or fragment',
      ],
      [
        `https://user:pw@discord.com/api/webhooks/${id}/token`,
        'discordWebhookUrl must not contain credentials',
      ],
      // The stand-in's loopback address, outside a local run.
      [discordWebhook().url, notAWebhook],
      ['not a url', notAWebhook],
      ['', notAWebhook],
      [
        `https://discord.com/api/webhooks/${id}/${'a'.repeat(500)}`,
        'discordWebhookUrl must be at most 512 characters long',
      ],
      [42, 'discordWebhookUrl must be a string or null'],
    ]
    for (const [url, message] of refused) {
      const res = await setWebhook(user, url as string, {})
      expect(res.status, String(url)).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, message: [message], error: 'Bad Request' })
    }
    expect(await storedUrl(user.id)).toBeNull()
  })

  it('accepts a loopback stand-in only in a local run', async () => {
    const user = await createUser()
    const webhook = discordWebhook()
    expect((await setWebhook(user, webhook.url, {})).status).toBe(400)
    const local = await setWebhook(user, webhook.url, LOCAL)
    expect(local.status).toBe(200)
    expect((await profileOf(user)).discord.maskedWebhookUrl).toBe(
      webhook.url.replace(webhook.token, '…'),
    )
  })
})

describe('Discord deliveries', () => {
  it('post a reminder once, as one embed with no mentions, and record Discord’s message id', async () => {
    const e = testEnv()
    const { user, webhook } = await discordRecipient()
    const [round] = await addContests([
      contest(3, {
        name: 'Codeforces Round 1020',
        websiteUrl: 'https://codeforces.com/contests/1',
      }),
    ])
    await runScheduler(e)
    const [result] = await deliverQueued(e)
    expect(result).toMatchObject({ acked: true, retried: false })

    const posts = await discordPosts(webhook.path)
    expect(posts).toHaveLength(1)
    expect(posts[0].path).toBe(`${webhook.path}?wait=true`)
    expect(posts[0].headers['content-type']).toBe('application/json')
    const [embed] = posts[0].body.embeds
    expect(posts[0].body.embeds).toHaveLength(1)
    expect(embed.title).toMatch(/^Reminder: Codeforces Round 1020 starts in/)
    expect(embed.description).toMatch(/Codeforces Round 1020 on Codeforces starts at/)
    expect(embed.url).toBe('https://codeforces.com/contests/1')
    expect(embed.timestamp).toBe(new Date(round.startTime).toISOString())
    expect(posts[0].body.allowed_mentions).toEqual({ parse: [] })

    const delivery = await discordDelivery(user.id)
    expect(delivery).toMatchObject({ status: 'SENT', attempts: 1 })
    const { id } = (await env.DB.prepare(
      'SELECT provider_message_id AS id FROM notification_deliveries WHERE id = ?',
    )
      .bind(delivery.id)
      .first<{ id: string }>())!
    expect(id).toMatch(/^\d{19}$/)

    // The next run finds the reminder made: nothing is queued or posted again.
    await runScheduler(e)
    expect(await deliverQueued(e)).toEqual([])
    expect(await discordPosts(webhook.path)).toHaveLength(1)
    expect(await notificationsOf(user.id)).toHaveLength(1)
  })

  it('turn Discord off on 404 Unknown Webhook until the user sets a new webhook', async () => {
    const e = testEnv()
    // Email stays on, so the next reminder is still made, without Discord.
    const { user, webhook } = await discordRecipient(true)
    await scriptUnknownWebhook(webhook.path)
    await addContests([contest(3)])
    await runScheduler(e)
    const results = await deliverQueued(e)
    expect(results.map((r) => [r.acked, r.retried])).toEqual([
      [true, false],
      [true, false],
    ])
    expect(await discordDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Discord answered 404 (code 10015): Unknown Webhook',
    })
    const blocked = await profileOf(user)
    expect(blocked.channelStatus).toEqual({
      discord: { blocked: true, reason: 'webhook-unknown', since: expect.any(String) },
    })
    expect(blocked.preferences.notificationChannels.discord).toBe(false)
    // The dead URL is forgotten: only a new one can turn Discord on again.
    expect(blocked.discord).toEqual({ webhookSet: false, maskedWebhookUrl: null })

    // The next reminder leaves Discord out.
    await addContests([contest(2)])
    await runScheduler(e)
    const second = (await notificationsOf(user.id))[1]
    expect(second.channels).not.toContain('discord')
    expect(second.deliveries.map((d: { channel: string }) => d.channel)).not.toContain('discord')

    // A new webhook turns it back on and clears the block.
    const fresh = discordWebhook()
    const set = await setWebhook(user, fresh.url)
    expect(set.body.preferences.notificationChannels.discord).toBe(true)
    expect((await profileOf(user)).channelStatus).toEqual({})
    await addContests([contest(1)])
    e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    await runScheduler(e)
    await deliverQueued(e)
    expect(await discordPosts(fresh.path)).toHaveLength(1)
  })

  it('leave a webhook set since the failed send alone', async () => {
    const { user, webhook } = await discordRecipient()
    const fresh = discordWebhook()
    await setWebhook(user, fresh.url)
    // The 404 of a send to the old webhook arrives after the user set the new one.
    await blockDeadDestination(createDb(env.DB), user.id, 'discord', webhook.url, Date.now())
    const profile = await profileOf(user)
    expect(profile.channelStatus).toEqual({})
    expect(profile.preferences.notificationChannels.discord).toBe(true)
    expect(await storedUrl(user.id)).toBe(fresh.url)
  })

  it('retry a 429 no sooner than its retry_after, a duplicate message meanwhile sending nothing, then record SENT', async () => {
    const e = testEnv()
    const { user, webhook } = await discordRecipient()
    await scriptRateLimited(webhook.path, 30)
    await addContests([contest(3)])
    await runScheduler(e)
    const message = { body: e.NOTIFICATIONS_QUEUE.bodies.splice(0)[0], attempts: 1 }
    const [first] = await consume(e, [message])
    expect(first).toMatchObject({ acked: false, retried: true })
    expect(first.delaySeconds).toBeGreaterThanOrEqual(30)
    expect(await discordDelivery(user.id)).toMatchObject({
      status: 'RETRYING',
      retryCount: 1,
      error: 'Discord answered 429: You are being rate limited.',
    })

    // A duplicate of the message meanwhile sends nothing and comes back when the wait is over.
    const posted = (await standIn.requests(webhook.path)).length
    const [duplicate] = await consume(e, [message])
    expect(duplicate).toMatchObject({ acked: true, retried: false })
    expect(await standIn.requests(webhook.path)).toHaveLength(posted)
    expect(e.NOTIFICATIONS_QUEUE.bodies).toEqual([message.body])

    // A wait longer than the retry policy's own (300 s before the second retry) wins over it.
    await scriptRateLimited(webhook.path, 420.5)
    const second = Date.now() + 61_000
    expect(await attemptAt(e, message.body, second)).toMatchObject([
      { kind: 'retry', delaySeconds: 421 },
    ])

    await standIn.script({
      method: 'POST',
      pathPrefix: webhook.path,
      responses: [{ status: 200, body: { id: '1300000000000000042' } }],
    })
    expect(await attemptAt(e, message.body, second + 422_000)).toEqual([{ kind: 'sent' }])
    expect(await discordDelivery(user.id)).toMatchObject({ status: 'SENT', retryCount: 2 })
  })

  it('retry a 5xx and fail another 4xx at once, leaving the channel on', async () => {
    const e = testEnv()
    const { user, webhook } = await discordRecipient()
    await standIn.script({
      method: 'POST',
      pathPrefix: webhook.path,
      responses: [
        { status: 502, body: { message: 'Bad Gateway' } },
        { status: 400, body: { message: 'Invalid Form Body', code: 50035 } },
      ],
    })
    await addContests([contest(3)])
    await runScheduler(e)
    const message = { body: e.NOTIFICATIONS_QUEUE.bodies.splice(0)[0], attempts: 1 }
    expect((await consume(e, [message]))[0]).toMatchObject({ retried: true })
    const [second] = await consume(e, [{ ...message, attempts: 2 }])
    expect(second).toMatchObject({ acked: true, retried: false })
    expect(await discordDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Discord answered 400 (code 50035): Invalid Form Body',
    })
    const profile = await profileOf(user)
    expect(profile.channelStatus).toEqual({})
    expect(profile.preferences.notificationChannels.discord).toBe(true)
  })

  it('never reach a stored URL that the outbound rules refuse at send time', async () => {
    const { user, webhook } = await discordRecipient()
    await addContests([contest(3)])
    // The same deployment, no longer a local run: the loopback webhook may not be reached.
    const e = testEnv({ ALLOW_LOCAL_TARGETS: 'false' })
    await runScheduler(e)
    const [result] = await deliverQueued(e)
    expect(result).toMatchObject({ acked: true, retried: false })
    expect(await discordPosts(webhook.path)).toEqual([])
    expect((await discordDelivery(user.id)).status).toBe('FAILED')
    expect((await discordDelivery(user.id)).error).toMatch(/^Not sent: discordWebhookUrl must be/)
  })

  it('leave Discord out while DISCORD_ENABLED=false', async () => {
    const { user, webhook } = await discordRecipient(true)
    await addContests([contest(3)])
    const e = testEnv({ DISCORD_ENABLED: 'false' })
    await runScheduler(e)
    const [notification] = await notificationsOf(user.id)
    expect(notification.channels).not.toContain('discord')
    const sent = await sendDiscord(e, { webhookUrl: webhook.url, message: { content: 'x' } })
    expect(sent).toMatchObject({ ok: false, transient: false, provider: 'none' })
    expect(await discordPosts(webhook.path)).toEqual([])
  })

  it('write to the local outbox under DEV_OUTBOX, without the token', async () => {
    const webhook = discordWebhook()
    const e = testEnv({ DEV_OUTBOX: 'true' })
    const sent = await sendDiscord(e, { webhookUrl: webhook.url, message: { content: 'hello' } })
    expect(sent).toMatchObject({ ok: true, provider: 'outbox', id: expect.any(String) })
    const stored = await env.KV.list({ prefix: 'dev-outbox:' })
    const record = await env.KV.get<Record<string, unknown>>(
      stored.keys.find((k) => k.name.endsWith(sent.id!))!.name,
      'json',
    )
    expect(record).toMatchObject({ channel: 'discord', body: { content: 'hello' } })
    expect(JSON.stringify(record)).not.toContain(webhook.token)
    expect(await discordPosts(webhook.path)).toEqual([])
  })

  it('read a rate limit’s wait from Retry-After when the body has none', () => {
    const res = new Response(null, { status: 429, headers: { 'Retry-After': '7' } })
    expect(readWebhookAnswer(res, { message: 'slow down' })).toMatchObject({
      ok: false,
      transient: true,
      retryAfterSeconds: 7,
    })
  })
})
