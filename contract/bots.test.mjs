// The bots over HTTP on a running service: the Discord application's interactions, signed with a
// key pair made for the run (Ed25519 on each runtime's Web Crypto), the Telegram bot's commands in
// a group, answered through the Bot API stand-in, and a chat's subscription announced by the
// scheduler through the queue.
import assert from 'node:assert/strict'
import { generateKeyPairSync, sign } from 'node:crypto'
import { describe, test } from 'node:test'
import { RUNTIME, startFlow } from './flow.mjs'
import { hoursFromNow, waitFor } from './http.mjs'

const ADMIN_EMAIL = 'contract-bots-admin@contract.example.test'
const APPLICATION_ID = '1300000000000000007'
const BOT_TOKEN = '700000001:contract-bot-token'
const BOT_USERNAME = 'ContractAlertBot'
const WEBHOOK_SECRET = 'contract_bot_secret'
const FLOW = { timeout: 60_000 }

const keys = generateKeyPairSync('ed25519')
// The raw 32-byte key is the end of its SPKI encoding.
const publicHex = keys.publicKey
  .export({ format: 'der', type: 'spki' })
  .subarray(-32)
  .toString('hex')

const SCHEDULER_CRON = '*/30 * * * *'
// The stand-in's Discord API takes this bot token only (test/stand-ins/discord-api.ts).
const DISCORD_BOT_TOKEN = 'stand-in-discord-bot-token'
const GUILD_ID = '1100000000000000042'
const CHANNEL_ID = '1200000000000000042'
const GROUP = { id: -1009876543210, type: 'supergroup', title: 'Flood Club' }
// Small, so the flow stays short, yet long enough that a retry that ignores it shows.
const RETRY_AFTER_SECONDS = 3
// The retry comes once retry_after has passed; the bound is for a slow, loaded machine.
const RETRY_FLOW = { timeout: 150_000 }

let standIn
let service
let api
let admin

/** Discord's headers for `body`, signed now (or at `at`, in seconds). */
function discordHeaders(body, at = Math.floor(Date.now() / 1000)) {
  const signature = sign(null, Buffer.from(`${at}${body}`), keys.privateKey).toString('hex')
  return { 'X-Signature-Ed25519': signature, 'X-Signature-Timestamp': String(at) }
}

async function interact(payload, { sent = payload, at } = {}) {
  const res = await fetch(`${service.base}/discord/interactions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...discordHeaders(JSON.stringify(payload), at) },
    body: JSON.stringify(sent),
  })
  return { status: res.status, body: await res.json() }
}

describe(`contract bots (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'bots',
    admin: { email: ADMIN_EMAIL, name: 'Contract Bots Admin' },
    settings: ({ url }) => ({
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_PUBLIC_KEY: publicHex,
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_BOT_USERNAME: BOT_USERNAME,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_API_URL: `${url}/telegram`,
      DISCORD_BOT_TOKEN,
      DISCORD_API_URL: `${url}/discord/api/v10`,
    }),
    async ready(flow) {
      ;({ standIn, service, api, admin } = flow)
      const added = await api.post(
        '/contests',
        {
          platform: 'atcoder',
          platformId: 'contract-bots-1',
          name: 'Contract Bots Contest',
          type: 'ARC',
          startTime: hoursFromNow(5),
          endTime: hoursFromNow(7),
        },
        { token: admin.accessToken },
      )
      assert.equal(added.status, 201, JSON.stringify(added.body))
    },
  })

  test(
    'Discord: a signed PING is answered, a tampered or stale one refused, /contests upcoming lists, once',
    FLOW,
    noted(async () => {
      const ping = { type: 1, id: '1', application_id: APPLICATION_ID }
      assert.deepEqual(await interact(ping), { status: 200, body: { type: 1 } })
      assert.equal((await interact(ping, { sent: { ...ping, id: '2' } })).status, 401)
      const stale = await interact(ping, { at: Math.floor(Date.now() / 1000) - 600 })
      assert.equal(stale.status, 401)

      const command = {
        type: 2,
        id: '1400000000000000001',
        data: {
          name: 'contests',
          options: [
            {
              type: 1,
              name: 'upcoming',
              options: [{ type: 3, name: 'platform', value: 'atcoder' }],
            },
          ],
        },
      }
      const upcoming = await interact(command)
      assert.equal(upcoming.status, 200)
      const [embed] = upcoming.body.data.embeds
      assert.equal(embed.title, 'Upcoming AtCoder contests')
      assert.match(embed.description, /Contract Bots Contest/)
      // The same signed interaction again runs nothing: its id was answered.
      const copy = await interact(command)
      assert.equal(copy.status, 409, JSON.stringify(copy.body))

      const status = await api.get('/discord')
      assert.equal(status.body.enabled, true)
      assert.equal(status.body.applicationId, APPLICATION_ID)
    }),
  )

  test(
    'Telegram: /upcoming@bot in a group is answered in that group',
    FLOW,
    noted(async () => {
      const update = {
        update_id: 1,
        message: {
          message_id: 1,
          date: Math.floor(Date.now() / 1000),
          from: { id: 501, is_bot: false, first_name: 'Ada' },
          chat: { id: -1001234567890, type: 'supergroup', title: 'CP Club' },
          text: `/upcoming@${BOT_USERNAME} atcoder`,
        },
      }
      const res = await api.post('/telegram/webhook', update, {
        headers: { 'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET },
      })
      assert.equal(res.status, 200)
      const [sent] = await waitFor('the reply in the group', async () => {
        const calls = await standIn.requests(`/telegram/bot${BOT_TOKEN}/sendMessage`)
        return calls.length > 0 && calls
      })
      const body = JSON.parse(sent.body)
      assert.equal(String(body.chat_id), '-1001234567890')
      assert.match(body.text, /Upcoming AtCoder contests/)
      assert.match(body.text, /Contract Bots Contest/)
    }),
  )

  test(
    'Telegram: a chat that subscribed gets one announcement when the scheduler runs',
    FLOW,
    noted(async () => {
      const chat = { id: 8_800_000_001, type: 'private', first_name: 'Ada' }
      const say = (text) =>
        api.post(
          '/telegram/webhook',
          {
            update_id: Date.now(),
            message: { message_id: 2, date: 0, from: { id: chat.id, is_bot: false }, chat, text },
          },
          { headers: { 'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET } },
        )
      assert.equal((await say('/subscribe atcoder')).status, 200)
      const sent = () => standIn.requests(`/telegram/bot${BOT_TOKEN}/sendMessage`)
      await waitFor('the subscription’s reply', async () =>
        (await sent()).some((r) => r.body.includes('Subscribed')),
      )
      const added = await api.post(
        '/contests',
        {
          platform: 'atcoder',
          platformId: 'contract-bots-2',
          name: 'Contract Announced Contest',
          type: 'ABC',
          startTime: hoursFromNow(0.75),
          endTime: hoursFromNow(2),
        },
        { token: admin.accessToken },
      )
      assert.equal(added.status, 201, JSON.stringify(added.body))
      await service.fireCron(SCHEDULER_CRON)
      await service.fireCron(SCHEDULER_CRON)
      const announcements = async () =>
        (await sent()).filter((r) => r.body.includes('Contract Announced Contest starts'))
      const [post] = await waitFor('the announcement', async () => {
        const found = await announcements()
        return found.length > 0 && found
      })
      const posted = JSON.parse(post.body)
      assert.equal(String(posted.chat_id), String(chat.id))
      const [follow, mute] = posted.reply_markup.inline_keyboard[0]
      assert.deepEqual([follow.text, mute.text], ['Follow', 'Mute'])
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      assert.equal((await announcements()).length, 1)

      // A press from someone whose Telegram is linked to no account is answered, changing nothing.
      const press = await api.post(
        '/telegram/webhook',
        {
          update_id: Date.now(),
          callback_query: { id: 'contract-press', from: { id: 31337 }, data: mute.callback_data },
        },
        { headers: { 'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET } },
      )
      assert.equal(press.status, 200)
      const [answer] = await waitFor('the button’s answer', async () => {
        const calls = await standIn.requests(`/telegram/bot${BOT_TOKEN}/answerCallbackQuery`)
        return calls.length > 0 && calls
      })
      assert.deepEqual(JSON.parse(answer.body).callback_query_id, 'contract-press')
      assert.match(JSON.parse(answer.body).text, /^Link Telegram to your Contest Alerts account/)
      const mine = await api.get('/communities', { token: admin.accessToken })
      assert.deepEqual(mine.body, { communities: [] })
    }),
  )

  test(
    'Telegram and Discord: a 429 is waited out for its retry_after, then the group and the channel get the announcement once',
    RETRY_FLOW,
    noted(async () => {
      const sendPath = `/telegram/bot${BOT_TOKEN}/sendMessage`
      const postPath = `/discord/api/v10/channels/${CHANNEL_ID}/messages`
      // The group's administrator subscribes it; the stand-in says the sender administers it.
      await standIn.script({
        method: 'POST',
        pathPrefix: `/telegram/bot${BOT_TOKEN}/getChatMember`,
        responses: [
          {
            status: 200,
            body: { ok: true, result: { status: 'administrator', user: { id: 502 } } },
          },
        ],
      })
      const said = await api.post(
        '/telegram/webhook',
        {
          update_id: Date.now(),
          message: {
            message_id: 3,
            date: Math.floor(Date.now() / 1000),
            from: { id: 502, is_bot: false, first_name: 'Grace' },
            chat: GROUP,
            text: `/subscribe@${BOT_USERNAME} codeforces`,
          },
        },
        { headers: { 'X-Telegram-Bot-Api-Secret-Token': WEBHOOK_SECRET } },
      )
      assert.equal(said.status, 200)
      const toGroup = async () =>
        (await standIn.requests(sendPath)).filter(
          (r) => String(JSON.parse(r.body).chat_id) === String(GROUP.id),
        )
      await waitFor('the group’s subscription reply', async () =>
        (await toGroup()).some((r) => r.body.includes('Subscribed')),
      )

      // A member who manages channels subscribes the server's channel.
      const subscribed = await interact({
        type: 2,
        id: '1400000000000000003',
        application_id: APPLICATION_ID,
        token: 'contract-interaction-token',
        guild_id: GUILD_ID,
        member: { permissions: '16', user: { id: '1500000000000000001' } },
        data: {
          name: 'contests',
          options: [
            {
              type: 1,
              name: 'subscribe',
              options: [
                { type: 7, name: 'channel', value: CHANNEL_ID },
                { type: 3, name: 'platforms', value: 'codeforces' },
              ],
            },
          ],
          resolved: {
            channels: {
              [CHANNEL_ID]: {
                id: CHANNEL_ID,
                name: 'contests',
                type: 0,
                guild_id: GUILD_ID,
                permissions: '16',
              },
            },
          },
        },
      })
      assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body))
      await waitFor('the channel’s subscription reply', async () => {
        const edits = await standIn.requests(`/discord/api/v10/webhooks/${APPLICATION_ID}/`)
        return edits.some((r) => r.body.includes('Subscribed'))
      })

      // Both answer the first announcement with their flood control, then accept.
      const telegramFlood = {
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${RETRY_AFTER_SECONDS}`,
          parameters: { retry_after: RETRY_AFTER_SECONDS },
        },
      }
      const telegramSent = {
        status: 200,
        body: {
          ok: true,
          result: { message_id: 9001, date: 0, chat: { id: GROUP.id, type: 'supergroup' } },
        },
      }
      const discordFlood = {
        status: 429,
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        body: {
          message: 'You are being rate limited.',
          retry_after: RETRY_AFTER_SECONDS,
          global: false,
        },
      }
      const discordSent = {
        status: 200,
        body: { id: '1600000000000000001', type: 0, channel_id: CHANNEL_ID, embeds: [] },
      }
      await standIn.script({
        method: 'POST',
        pathPrefix: sendPath,
        responses: [telegramFlood, telegramSent],
      })
      await standIn.script({
        method: 'POST',
        pathPrefix: postPath,
        responses: [discordFlood, discordSent],
      })

      const added = await api.post(
        '/contests',
        {
          platform: 'codeforces',
          platformId: 'contract-bots-flood',
          name: 'Contract Flood Round',
          type: 'CF',
          startTime: hoursFromNow(0.75),
          endTime: hoursFromNow(2.75),
        },
        { token: admin.accessToken },
      )
      assert.equal(added.status, 201, JSON.stringify(added.body))
      await service.fireCron(SCHEDULER_CRON)

      const named = (r) => r.body.includes('Contract Flood Round starts')
      const attempts = async () => ({
        telegram: (await toGroup()).filter(named),
        discord: (await standIn.requests(postPath)).filter(named),
      })
      const seen = await waitFor(
        'an announcement accepted on both',
        async () => {
          const found = await attempts()
          const accepted = (list) => list.some((r) => r.status === 200)
          return accepted(found.telegram) && accepted(found.discord) && found
        },
        { timeoutMs: 120_000, intervalMs: 500, describe: attempts },
      )
      // Whatever came too soon after would show here.
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      const final = await attempts()
      for (const [name, list] of Object.entries(final)) {
        const [flooded, retried, ...more] = list
        assert.equal(flooded.status, 429, `${name}: the first attempt met the 429`)
        const gap = retried.at - flooded.at
        console.log(`${RUNTIME} ${name}: retried ${gap} ms after the 429 (retry_after 3 s)`)
        assert.ok(
          gap >= RETRY_AFTER_SECONDS * 1000,
          `${name}: retried ${gap} ms after a 429 asking for ${RETRY_AFTER_SECONDS} s`,
        )
        assert.equal(retried.status, 200)
        assert.deepEqual(more, [], `${name}: exactly one announcement delivered`)
      }
      assert.equal(seen.telegram.length, 2)
    }),
  )
  test(
    'Discord: a channel’s event is created, moved and deleted with its contest; a button press adds a role and the next removes it',
    RETRY_FLOW,
    noted(async () => {
      const channel = '1200000000000000077'
      const member = '1500000000000000077'
      const role = '1300000000000000077'
      const eventsPath = `/discord/api/v10/guilds/${GUILD_ID}/scheduled-events`
      const rolePath = `/discord/api/v10/guilds/${GUILD_ID}/members/${member}/roles/${role}`
      const command = (id, sub, options, group) => ({
        type: 2,
        id,
        application_id: APPLICATION_ID,
        token: `contract-token-${id}`,
        guild_id: GUILD_ID,
        channel_id: channel,
        member: { permissions: '16', user: { id: member }, roles: [] },
        data: {
          name: 'contests',
          options: [
            group
              ? { type: 2, name: group, options: [{ type: 1, name: sub, options }] }
              : { type: 1, name: sub, options },
          ],
          resolved: {
            channels: {
              [channel]: { id: channel, name: 'events', type: 0, permissions: '16' },
            },
          },
        },
      })
      const replied = (id, words) =>
        waitFor(`the reply of ${id}`, async () => {
          const edits = await standIn.requests(
            `/discord/api/v10/webhooks/${APPLICATION_ID}/contract-token-${id}/`,
          )
          return edits.some((r) => r.body.includes(words))
        })
      const subscribed = await interact(
        command('1400000000000000071', 'subscribe', [
          { type: 7, name: 'channel', value: channel },
          { type: 3, name: 'platforms', value: 'leetcode' },
          { type: 5, name: 'events', value: true },
        ]),
      )
      assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body))
      await replied('1400000000000000071', 'Subscribed')
      await interact(
        command(
          '1400000000000000072',
          'set',
          [
            { type: 7, name: 'channel', value: channel },
            { type: 3, name: 'platform', value: 'leetcode' },
            { type: 8, name: 'role', value: role },
          ],
          'roles',
        ),
      )
      await replied('1400000000000000072', `<@&${role}>`)

      const added = await api.post(
        '/contests',
        {
          platform: 'leetcode',
          platformId: 'contract-bots-events',
          name: 'Contract Weekly Contest',
          type: 'WEEKLY',
          websiteUrl: 'https://leetcode.com/contest/contract-weekly',
          startTime: hoursFromNow(0.75),
          endTime: hoursFromNow(2.25),
        },
        { token: admin.accessToken },
      )
      assert.equal(added.status, 201, JSON.stringify(added.body))
      const calls = async (method) =>
        (await standIn.requests(eventsPath)).filter((r) => r.method === method)
      await service.fireCron(SCHEDULER_CRON)
      const [made] = await waitFor('the event made', async () => {
        const posts = await calls('POST')
        return posts.some((r) => r.status === 200) && posts
      })
      const event = JSON.parse(made.body)
      assert.equal(event.entity_type, 3)
      assert.equal(event.privacy_level, 2)
      assert.equal(event.entity_metadata.location, 'https://leetcode.com/contest/contract-weekly')
      assert.equal(event.scheduled_start_time, added.body.startTime)
      const announcement = await waitFor('the announcement with its button', async () => {
        const posts = await standIn.requests(`/discord/api/v10/channels/${channel}/messages`)
        return posts.find((r) => r.body.includes('Contract Weekly Contest'))
      })
      const posted = JSON.parse(announcement.body)
      assert.deepEqual(posted.allowed_mentions, { parse: [], roles: [role] })
      const button = posted.components[0].components[0]
      assert.equal(button.label, 'Ping me for LeetCode')

      // The contest moves an hour later: the event follows, once.
      const moved = await api.patch(
        `/contests/${added.body.id}`,
        { startTime: hoursFromNow(1.75), endTime: hoursFromNow(3.25) },
        { token: admin.accessToken },
      )
      assert.equal(moved.status, 200, JSON.stringify(moved.body))
      await service.fireCron(SCHEDULER_CRON)
      const [patch] = await waitFor('the event moved', async () => {
        const patches = await calls('PATCH')
        return patches.some((r) => r.status === 200) && patches
      })
      assert.equal(JSON.parse(patch.body).scheduled_start_time, moved.body.startTime)

      // Cancelled: the event is deleted.
      const cancelled = await api.patch(
        `/contests/${added.body.id}`,
        { isActive: false },
        { token: admin.accessToken },
      )
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
      await service.fireCron(SCHEDULER_CRON)
      await waitFor('the event deleted', async () =>
        (await calls('DELETE')).some((r) => r.status === 204),
      )
      await service.fireCron(SCHEDULER_CRON)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      assert.equal((await calls('POST')).length, 1, 'one event made')
      assert.equal((await calls('PATCH')).length, 1, 'one move')
      assert.equal((await calls('DELETE')).length, 1, 'one deletion')

      // The button: a press adds the role, the next (holding it) removes it.
      const press = (id, roles) => ({
        type: 3,
        id,
        application_id: APPLICATION_ID,
        token: `contract-token-${id}`,
        guild_id: GUILD_ID,
        channel_id: channel,
        member: { user: { id: member }, roles, permissions: '0' },
        data: { custom_id: button.custom_id, component_type: 2 },
      })
      const first = await interact(press('1400000000000000073', []))
      assert.deepEqual(first.body, { type: 5, data: { flags: 64 } })
      await replied('1400000000000000073', 'You have')
      await interact(press('1400000000000000074', [role]))
      await replied('1400000000000000074', 'is taken away')
      const roleCalls = await standIn.requests(rolePath)
      assert.deepEqual(
        roleCalls.map((r) => [r.method, r.status]),
        [
          ['PUT', 204],
          ['DELETE', 204],
        ],
      )
    }),
  )
})
