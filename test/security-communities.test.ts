// Only a live account with a proven address claims a community, and the mail about a claimed chat
// that stopped goes to a proven address only, naming the chat by its service and id, never by the
// title its members typed: the outside review's attack (sign up with someone else's address, claim
// your own group titled as a phishing line, remove the bot) step by step, over the API, the web
// app, signed Telegram updates and signed Discord interactions.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { announceDue } from '../src/communities/announce.ts'
import { UNVERIFIED_CANNOT_CLAIM } from '../src/communities/claims.ts'
import { findDestination, subscribe } from '../src/communities/destinations.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { cleanupJob } from '../src/jobs/cleanup.ts'
import { toHex } from '../src/lib/crypto.ts'
import { addContests, contest } from './helpers/contests.ts'
import { selectOne, select } from './helpers/html.ts'
import { consume, PROVIDERS, resetNotifications, testEnv } from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { botKicked } from './helpers/telegram.ts'
import { api, createUser, uniqueEmail, type TestUser } from './helpers/users.ts'
import { expectPage, formErrors, signedInBrowser } from './helpers/web-app.ts'

const TOKEN = PROVIDERS.TELEGRAM_BOT_TOKEN!
const SEND_PATH = `/telegram/bot${TOKEN}/sendMessage`
const MEMBER_PATH = `/telegram/bot${TOKEN}/getChatMember`
// The review's group title: a phishing line the victim's mail must never carry.
const PHISHING_TITLE = 'URGENT: your account is suspended, re-login at https://evil.example/login'
const UNKNOWN_CODE = /^That code is unknown or expired/

let nextChat = -1_004_000_000_000
let updateId = 70_000

beforeEach(async () => {
  await resetNotifications()
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

const db = () => createDb(env.DB)

/** A signed Telegram update: `text` sent in the supergroup `chatId` by an administrator. */
async function telegram(chatId: number, text: string, title = 'CP Club') {
  const id = ++updateId
  const res = await api('POST', '/telegram/webhook', {
    body: {
      update_id: id,
      message: {
        message_id: id,
        date: 0,
        chat: { id: chatId, type: 'supergroup', title },
        from: { id: 77, is_bot: false },
        text,
      },
    },
    bindings: testEnv(),
    headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
  })
  expect(res.status).toBe(200)
}

/** What the bot said in the chat, in order. */
const repliesIn = async (chatId: number) =>
  (await standIn.requests(SEND_PATH))
    .map((r) => JSON.parse(r.body))
    .filter((m) => m.chat_id === String(chatId))
    .map((m) => m.text as string)

/**
 * The next `times` getChatMember calls answer administrator, each after `delayMs`: commands sent at
 * once then reach their claim at once, as two chats racing would.
 */
const scriptAdmins = (times = 1, delayMs = 0) =>
  standIn.script({
    method: 'POST',
    pathPrefix: MEMBER_PATH,
    responses: [...Array(times).fill('administrator'), 'member'].map((status) => ({
      status: 200,
      body: { ok: true, result: { status } },
      delayMs,
    })),
  })

/** The group subscribed to Codeforces from its chat, as its administrator does. */
async function subscribedGroup(title = 'CP Club') {
  const chatId = --nextChat
  await scriptAdmins()
  await telegram(chatId, '/subscribe codeforces', title)
  expect(await findDestination(db(), { channel: 'telegram', chatId: String(chatId) })).toBeTruthy()
  return chatId
}

/** `/claim <code>` sent in the group by its administrator; the bot's answer. */
async function claim(chatId: number, code: string) {
  await scriptAdmins()
  await telegram(chatId, `/claim ${code}`)
  return (await repliesIn(chatId)).at(-1)
}

const claimCode = (user: TestUser) =>
  api('POST', '/communities/claim-codes', { token: user.accessToken })

async function codeOf(user: TestUser): Promise<string> {
  const res = await claimCode(user)
  expect(res.status).toBe(201)
  return res.body.code
}

const ownerOf = async (chatId: number) =>
  (await findDestination(db(), { channel: 'telegram', chatId: String(chatId) }))?.ownerId

const deleteAccount = async (user: TestUser) =>
  expect((await api('DELETE', '/user/delete-account', { token: user.accessToken })).status).toBe(
    200,
  )

/** Mail the Resend stand-in received for `email`. */
const mailsTo = async (email: string) =>
  (await standIn.requests('/resend/emails'))
    .map((r) => JSON.parse(r.body))
    .filter((m) => [m.to].flat().includes(email))

/** A contest due in the group, and its announcement answered 403 (the bot was removed). */
async function removeBotFrom(chatId: number) {
  const e = testEnv()
  await addContests([contest(0.75)])
  await standIn.script({
    method: 'POST',
    pathPrefix: SEND_PATH,
    responses: [botKicked],
  })
  await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
  const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  expect(bodies.length).toBeGreaterThan(0)
  await consume(
    e,
    bodies.map((body) => ({ body, attempts: 1 })),
  )
  const row = await findDestination(db(), { channel: 'telegram', chatId: String(chatId) })
  expect(row?.deadAt).toEqual(expect.any(Number))
}

describe('claim codes', () => {
  it('refuses a claim code to an account whose address is unproven (403), so the review’s squatter claims nothing', async () => {
    const victim = uniqueEmail('victim')
    const squatter = await createUser({ email: victim, verified: false })
    const refused = await claimCode(squatter)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({
      statusCode: 403,
      message: UNVERIFIED_CANNOT_CLAIM,
      error: 'Forbidden',
    })
    expect(refused.body.code).toBeUndefined()
    // The rest of the attack has nothing to send: the group stays unclaimed, no mail goes out.
    const group = await subscribedGroup(PHISHING_TITLE)
    await removeBotFrom(group)
    expect(await ownerOf(group)).toBe(null)
    const mails = await mailsTo(victim)
    expect(mails.filter((m) => String(m.subject).includes('stopped'))).toEqual([])
  })

  it('refuses the Communities page’s claim form to an account whose address is unproven', async () => {
    const squatter = await createUser({ verified: false })
    const browser = await signedInBrowser(squatter)
    const opened = await browser.get('/app/communities')
    expectPage(opened, 200)
    expect((await selectOne(opened.html, '#claim-unverified')).text).toBe(
      `${UNVERIFIED_CANNOT_CLAIM}.`,
    )
    expect(await select(opened.html, 'form[action="/app/communities/claim-code"]')).toEqual([])

    const refused = await browser.post('/app/communities/claim-code', {}, { csrf: opened.csrf })
    expectPage(refused, 403)
    expect(await formErrors(refused)).toEqual([UNVERIFIED_CANNOT_CLAIM])
    expect(await select(refused.html, '#claim-code')).toEqual([])
  })

  it('refuses a claim code to a deleted account’s unexpired token (401)', async () => {
    const user = await createUser()
    await deleteAccount(user)
    const refused = await claimCode(user)
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' })
    expect(refused.body.code).toBeUndefined()
  })
})

describe('redeeming a claim code', () => {
  it('checks the account again: a code made before its account was deleted claims nothing', async () => {
    const user = await createUser()
    const code = await codeOf(user)
    const group = await subscribedGroup()
    await deleteAccount(user)
    expect(await claim(group, code)).toMatch(UNKNOWN_CODE)
    expect(await ownerOf(group)).toBe(null)
  })

  it('gives one code’s community to exactly one of two chats claiming with it at once', async () => {
    const owner = await createUser()
    const [first, second] = [await subscribedGroup(), await subscribedGroup()]
    const code = await codeOf(owner)
    await scriptAdmins(2, 200)
    await Promise.all([telegram(first, `/claim ${code}`), telegram(second, `/claim ${code}`)])

    const owners = [await ownerOf(first), await ownerOf(second)]
    expect(owners.filter((id) => id === owner.id)).toHaveLength(1)
    expect(owners.filter((id) => id === null)).toHaveLength(1)
    const answers = [(await repliesIn(first)).at(-1), (await repliesIn(second)).at(-1)]
    expect(answers.filter((a) => a?.startsWith('Claimed'))).toHaveLength(1)
    expect(answers.filter((a) => UNKNOWN_CODE.test(a ?? ''))).toHaveLength(1)
    // Spent: a third try claims nothing either.
    expect(await claim(owners[0] === null ? first : second, code)).toMatch(UNKNOWN_CODE)
  })
})

describe('a Discord channel', () => {
  const APPLICATION_ID = '1300000000000000041'
  const GUILD = '1100000000000000041'
  const CHANNEL = '1200000000000000041'
  let keys: { privateKey: CryptoKey; publicHex: string }
  let seq = 0

  beforeAll(async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair
    const raw = (await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer
    keys = { privateKey: pair.privateKey, publicHex: toHex(new Uint8Array(raw)) }
  })

  /** `/contests claim` by a member who manages channels, signed as Discord signs it. */
  async function discordClaim(code: string) {
    const token = `claim-token-${++seq}`
    const payload = {
      type: 2,
      id: `4100000000000000${seq}`,
      application_id: APPLICATION_ID,
      token,
      guild_id: GUILD,
      member: { permissions: '16', user: { id: '42' } },
      data: {
        name: 'contests',
        options: [
          {
            type: 1,
            name: 'claim',
            options: [
              { name: 'channel', value: CHANNEL },
              { name: 'code', value: code },
            ],
          },
        ],
        resolved: {
          channels: {
            [CHANNEL]: {
              id: CHANNEL,
              name: 'contests',
              type: 0,
              guild_id: GUILD,
              permissions: '16',
            },
          },
        },
      },
    }
    const body = JSON.stringify(payload)
    const at = Math.floor(Date.now() / 1000)
    const data = new TextEncoder().encode(`${at}${body}`)
    const signed = await crypto.subtle.sign('Ed25519', keys.privateKey, data)
    const bindings: Partial<Env> = {
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_PUBLIC_KEY: keys.publicHex,
      DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
    }
    const res = await api('POST', '/discord/interactions', {
      body: payload,
      headers: {
        'X-Signature-Ed25519': toHex(new Uint8Array(signed)),
        'X-Signature-Timestamp': String(at),
      },
      bindings,
    })
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
    const [edit] = await standIn.requests(
      `/discord/api/v10/webhooks/${APPLICATION_ID}/${token}/messages/@original`,
    )
    return JSON.parse(edit.body).content as string
  }

  it('is claimed with a live, proven account’s code, and not with a deleted account’s', async () => {
    const place = { channel: 'discord' as const, chatId: CHANNEL, guildId: GUILD, title: '#c' }
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    const gone = await createUser()
    const goneCode = await codeOf(gone)
    await deleteAccount(gone)
    expect(await discordClaim(goneCode)).toMatch(UNKNOWN_CODE)
    expect((await findDestination(db(), place))?.ownerId).toBe(null)

    const owner = await createUser()
    expect(await discordClaim(await codeOf(owner))).toMatch(/^Claimed/)
    expect((await findDestination(db(), place))?.ownerId).toBe(owner.id)
  })
})

describe('the notice that a claimed chat stopped', () => {
  it('names the chat by its service and id, never by its title, and links to the Communities page', async () => {
    const owner = await createUser()
    const group = await subscribedGroup(PHISHING_TITLE)
    expect(await claim(group, await codeOf(owner))).toMatch(/^Claimed/)
    await removeBotFrom(group)

    const [mail, ...more] = (await mailsTo(owner.email)).filter((m) =>
      String(m.subject).includes('stopped'),
    )
    expect(more).toEqual([])
    expect(mail.subject).toBe(
      '[Contest Alerts] Announcements to a Telegram chat you claimed stopped',
    )
    expect(mail.text).toContain(`the Telegram chat ${group} that your account claimed`)
    expect(mail.text).toContain('bot was kicked')
    expect(mail.text).toContain('/app/communities')
    expect(mail.html).toContain('/app/communities')
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toContain('URGENT')
      expect(part).not.toContain('evil.example')
    }
  })

  it('goes to no unproven address, and the daily cleanup releases what an unproven account held', async () => {
    // A claim from before claiming needed a proven address.
    const squatter = await createUser({ verified: false })
    const group = await subscribedGroup(PHISHING_TITLE)
    await env.DB.prepare('UPDATE community_destinations SET owner_id = ? WHERE chat_id = ?')
      .bind(squatter.id, String(group))
      .run()
    const listed = await api('GET', '/communities', { token: squatter.accessToken })
    expect(listed.body).toEqual({ communities: [] })

    await removeBotFrom(group)
    expect(await mailsTo(squatter.email)).toHaveLength(1) // the verification mail, nothing else
    expect((await cleanupJob(env, Date.now())).communitiesReleased).toBeGreaterThanOrEqual(1)
    expect(await ownerOf(group)).toBe(null)
  })

  it('has no owner to tell once the owner deleted the account: its communities are released', async () => {
    const owner = await createUser()
    const group = await subscribedGroup()
    expect(await claim(group, await codeOf(owner))).toMatch(/^Claimed/)
    await deleteAccount(owner)
    expect(await ownerOf(group)).toBe(null)
    await removeBotFrom(group)
    const mails = await mailsTo(owner.email)
    expect(mails.filter((m) => String(m.subject).includes('stopped'))).toEqual([])
  })
})
