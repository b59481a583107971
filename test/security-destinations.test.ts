// What a takeover may leave attached (a private feed, a Telegram chat, a Discord channel, browsers,
// a phone) and how its owner removes it: the password-changed notice lists each with a signed
// removal link (a GET only asks, a POST removes, 7 days, bound to its account and kind), one link
// removes all and signs out everywhere, and the account page's button does the same.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { unlinkToken, UNLINK_PATH } from '../src/account/unlink-link.ts'
import { DAY_MS } from '../src/lib/time.ts'
import { select, selectOne } from './helpers/html.ts'
import { PROVIDERS, pushKeys, testEnv } from './helpers/notifications.ts'
import { uniquePhone, verifyPhone } from './helpers/phone.ts'
import {
  api,
  createUser,
  lastCode,
  lastMailTo,
  uniquePassword,
  type TestUser,
} from './helpers/users.ts'
import { expectPage, expectRefused, noticeOf, SESSION_COOKIE } from './helpers/web-app.ts'
import { WebClient, type WebPage } from './helpers/web.ts'
import { call } from './helpers/worker.ts'

const DISCORD_URL = 'https://discord.com/api/webhooks/123456789012345678/Attacker-Token_abc123'
const PASSWORD_CHANGED = 'Your Contest Alerts password was changed'
const LINK = /http:\/\/localhost:8787(\/app\/account\/unlink\?token=[A-Za-z0-9._-]+)/g
let nextChat = 8_100_000_001

/** A Telegram chat linked the way a person links one: the deep link's token sent with /start. */
async function linkTelegram(user: TestUser) {
  const e = testEnv()
  const link = await api('POST', '/users/telegram/link', { token: user.accessToken, bindings: e })
  expect(link.status).toBe(201)
  const start = new URL(link.body.url).searchParams.get('start')!
  const chatId = nextChat++
  const update = {
    update_id: chatId,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      from: { id: chatId, is_bot: false, first_name: 'Mallory' },
      chat: { id: chatId, type: 'private', first_name: 'Mallory' },
      text: `/start ${start}`,
    },
  }
  const answer = await api('POST', '/telegram/webhook', {
    body: update,
    bindings: e,
    headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
  })
  expect(answer.status).toBe(200)
}

/**
 * An account with everything a taker could attach, each through the API: a private feed, a
 * Telegram chat, a Discord channel, a browser's push subscription and a verified phone.
 */
async function takenOverAccount() {
  const user = await createUser({ name: 'Ada Lovelace' })
  const feed = await api('POST', '/users/calendar', { token: user.accessToken })
  expect(feed.status).toBe(201)
  const feedPath = new URL(feed.body.url).pathname
  await linkTelegram(user)
  const phone = uniquePhone()
  const profile = await api('PUT', '/users/profile', {
    token: user.accessToken,
    body: { phoneNumber: phone, preferences: { discordWebhookUrl: DISCORD_URL } },
  })
  expect(profile.status, JSON.stringify(profile.body)).toBe(200)
  await verifyPhone(user, phone)
  const { p256dh, auth } = await pushKeys()
  const push = await api('POST', '/users/push-subscriptions', {
    token: user.accessToken,
    body: {
      endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
      expirationTime: null,
      keys: { p256dh, auth },
    },
  })
  expect(push.status, JSON.stringify(push.body)).toBe(201)
  return { user, feedPath, phone }
}

/** The owner takes the account back with a mailed code and a new password. */
async function resetBy(user: TestUser): Promise<TestUser> {
  await api('POST', '/auth/forgot-password', { body: { email: user.email } })
  const password = uniquePassword()
  const reset = await api('POST', '/auth/reset-password', {
    body: { email: user.email, code: await lastCode(user.email), newPassword: password },
  })
  expect(reset.status).toBe(200)
  return { ...user, password }
}

interface Notice {
  text: string
  html: string
  /** The removal links (path and query), in the order the text gives them. */
  links: string[]
}

async function passwordNotice(user: TestUser): Promise<Notice> {
  const { message } = await lastMailTo(user.email)
  expect(message.subject).toBe(PASSWORD_CHANGED)
  const links = [...(message.text as string).matchAll(LINK)].map((m) => m[1])
  return { text: message.text, html: message.html, links }
}

/** The link on the notice's line that starts with `label`. */
function linkFor(notice: Notice, label: string): string {
  const line = notice.text.split('\n').find((l) => l.startsWith(label))
  expect(line, `the notice lists ${label}`).toBeDefined()
  return [...line!.matchAll(LINK)][0][1]
}

const pushCount = async (userId: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM push_subscriptions WHERE user_id = ?')
    .bind(userId)
    .first<{ n: number }>())!.n

/** What the account still has attached: its feed as a calendar app sees it, the rest as stored. */
async function attached(userId: string, feedPath: string) {
  const row = (await env.DB.prepare(
    `SELECT telegram_chat_id, notify_telegram, discord_webhook_url, notify_discord, phone_number,
            phone_verified_number FROM users WHERE id = ?`,
  )
    .bind(userId)
    .first<Record<string, string | number | null>>())!
  // A channel is off once its destination is gone.
  if (row.telegram_chat_id === null) expect(row.notify_telegram).toBe(0)
  if (row.discord_webhook_url === null) expect(row.notify_discord).toBe(0)
  if (row.phone_number === null) expect(row.phone_verified_number).toBeNull()
  return {
    feed: (await call(feedPath)).status === 200,
    telegram: row.telegram_chat_id !== null,
    discord: row.discord_webhook_url !== null,
    push: (await pushCount(userId)) > 0,
    phone: row.phone_number !== null,
  }
}

const EVERYTHING = { feed: true, telegram: true, discord: true, push: true, phone: true }

/** Opens a link in a fresh browser (no sign-in) and presses its button. */
async function follow(link: string): Promise<{ shown: WebPage; done: WebPage }> {
  const browser = new WebClient()
  const shown = await browser.get(link)
  expectPage(shown, 200)
  const done = await browser.post(link, {}, { csrf: shown.csrf })
  return { shown, done }
}

const texts = async (page: WebPage, selector: string) =>
  (await select(page.html, selector)).map((e) => e.text)

describe('the password-changed notice', () => {
  it('lists, after a reset, the feed, Telegram, Discord, push and phone, each with its removal link', async () => {
    const { user, feedPath, phone } = await takenOverAccount()
    await resetBy(user)
    const notice = await passwordNotice(user)
    const today = new Date().toISOString().slice(0, 10)
    for (const label of [
      `- Your private calendar feed (its address was made on ${today}):`,
      '- A Telegram chat:',
      '- Discord: discord.com/api/webhooks/123456789012345678/…:',
      '- Web Push in 1 browser:',
      `- WhatsApp to ${'•'.repeat(phone.length - 4)}${phone.slice(-4)}:`,
    ]) {
      expect(linkFor(notice, label)).toMatch(/^\/app\/account\/unlink\?token=/)
    }
    expect(linkFor(notice, 'Remove all of them and sign out everywhere:')).toBeDefined()
    expect(notice.links).toHaveLength(6)
    expect(new Set(notice.links).size).toBe(6)
    expect(notice.text).toContain('These links work for 7 days')
    // The HTML part carries the same links as links.
    for (const link of notice.links) {
      expect(notice.html).toContain(`href="http://localhost:8787${link}"`)
    }
    // Labels only: no feed address, no webhook token, no whole number.
    for (const secret of [feedPath.slice('/calendar/'.length, -4), 'Attacker-Token', phone]) {
      expect(notice.text).not.toContain(secret)
      expect(notice.html).not.toContain(secret)
    }
  })

  it('lists them after a change of password too; with nothing linked it says so in one line', async () => {
    const { user } = await takenOverAccount()
    const changed = await api('PATCH', '/auth/password', {
      token: user.accessToken,
      body: { currentPassword: user.password, newPassword: uniquePassword() },
    })
    expect(changed.status).toBe(200)
    expect((await passwordNotice(user)).links).toHaveLength(6)

    const bare = await createUser()
    await resetBy(bare)
    const notice = await passwordNotice(bare)
    const nothing = notice.text.split('\n').filter((line) => line.startsWith('Nothing else'))
    expect(nothing).toEqual([
      'Nothing else gets this account’s alerts: no calendar feed, Telegram chat, Discord or ' +
        'Slack channel, browser or phone is linked.',
    ])
    // Signing out everywhere is still offered: a change keeps the changer's own session.
    expect(notice.links).toHaveLength(1)
    expect(linkFor(notice, 'To sign out everywhere:')).toBeDefined()
  })
})

describe('a removal link', () => {
  it('shows on a GET what it would remove and changes nothing; its POST removes only that', async () => {
    const { user, feedPath } = await takenOverAccount()
    const owner = await resetBy(user)
    const notice = await passwordNotice(user)
    const feedLink = linkFor(notice, '- Your private calendar feed')
    const remaining = { ...EVERYTHING }

    // A mail scanner fetching every link removes nothing.
    for (const link of notice.links) expectPage(await new WebClient().get(link), 200)
    expect(await attached(owner.id, feedPath)).toEqual(EVERYTHING)

    const { shown, done } = await follow(feedLink)
    expect((await selectOne(shown.html, 'h1')).text).toBe('Remove this from your account?')
    expect(await texts(shown, '#unlink-targets li')).toEqual([
      expect.stringMatching(/^Your private calendar feed/),
    ])
    expectPage(done, 200)
    expect((await selectOne(done.html, 'h1')).text).toBe('Removed')
    // The old feed address answers 404; nothing else went with it.
    expect((await call(feedPath)).status).toBe(404)
    remaining.feed = false
    expect(await attached(owner.id, feedPath)).toEqual(remaining)

    for (const [kind, label] of [
      ['telegram', '- A Telegram chat'],
      ['discord', '- Discord:'],
      ['push', '- Web Push in'],
      ['phone', '- WhatsApp to'],
    ] as const) {
      const { done } = await follow(linkFor(notice, label))
      expectPage(done, 200)
      remaining[kind] = false
      expect(await attached(owner.id, feedPath), kind).toEqual(remaining)
    }

    // Used again, it finds nothing left to remove.
    const again = await follow(feedLink)
    expect((await selectOne(again.shown.html, 'h1')).text).toBe('Nothing to remove')
    expect((await selectOne(again.done.html, 'h1')).text).toBe('Nothing to remove')
  })

  it('for everything removes all of it and signs out every session, the browser’s too', async () => {
    const { user, feedPath } = await takenOverAccount()
    const owner = await resetBy(user)
    const notice = await passwordNotice(user)
    // Sessions opened since the reset: an API client and a signed-in browser.
    const signedIn = await api('POST', '/auth/signin', {
      body: { email: owner.email, password: owner.password },
    })
    expect(signedIn.status).toBe(200)
    const browser = new WebClient()
    const signin = await browser.submit('/app/signin', '/app/signin', {
      email: owner.email,
      password: owner.password,
    })
    expect(signin.status).toBe(303)

    const link = linkFor(notice, 'Remove all of them and sign out everywhere:')
    const shown = await browser.get(link)
    expectPage(shown, 200)
    expect(await texts(shown, '#unlink-targets li')).toHaveLength(5)
    const done = await browser.post(link, {}, { csrf: shown.csrf })
    expectPage(done, 200)
    expect((await selectOne(done.html, 'h1')).text).toBe('Everything is removed')
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)

    expect(await attached(owner.id, feedPath)).toEqual({
      feed: false,
      telegram: false,
      discord: false,
      push: false,
      phone: false,
    })
    const refresh = await api('POST', '/auth/refresh', {
      body: { refreshToken: signedIn.body.refreshToken },
    })
    expect(refresh.status).toBe(401)
  })

  it('leaves a browser signed in to another account signed in', async () => {
    const { user } = await takenOverAccount()
    await resetBy(user)
    const link = linkFor(await passwordNotice(user), 'Remove all of them')
    const someoneElse = await createUser()
    const browser = new WebClient()
    await browser.submit('/app/signin', '/app/signin', {
      email: someoneElse.email,
      password: someoneElse.password,
    })
    const shown = await browser.get(link)
    expectPage(await browser.post(link, {}, { csrf: shown.csrf }), 200)
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true)
    expectPage(await browser.get('/app/account'), 200)
  })

  it('refuses a forged, changed, cut or expired token (400) and removes nothing', async () => {
    const { user, feedPath } = await takenOverAccount()
    const owner = await resetBy(user)
    const notice = await passwordNotice(user)
    const feedLink = linkFor(notice, '- Your private calendar feed')
    const token = new URL(feedLink, 'http://x').searchParams.get('token')!
    const [id, kind, expires, signature] = token.split('.')
    const other = await createUser()
    const expired = await unlinkToken(env, owner.id, 'feed', Date.now() - 8 * DAY_MS)
    const badTokens = [
      `${id}.all.${expires}.${signature}`,
      `${other.id}.${kind}.${expires}.${signature}`,
      `${id}.${kind}.${Number(expires) + 1}.${signature}`,
      `${id}.${kind}.${expires}.${'A'.repeat(43)}`,
      token.slice(0, -1),
      `${token}A`,
      'x'.repeat(5000),
      '',
    ]
    for (const bad of [...badTokens, expired]) {
      const path = `${UNLINK_PATH}?token=${encodeURIComponent(bad)}`
      const browser = new WebClient()
      const shown = await browser.get(path)
      expectPage(shown, 400)
      const title = (await selectOne(shown.html, 'h1')).text
      expect(title).toBe(bad === expired ? 'This link has expired' : 'This link is not valid')
      // A token the page never accepted gets the same answer on a POST.
      const posted = await browser.post(path, {}, { csrf: (await browser.get('/app/signin')).csrf })
      expectPage(posted, 400)
    }
    expect(await attached(owner.id, feedPath)).toEqual(EVERYTHING)
  })

  it('needs the page’s CSRF token to remove (403 otherwise)', async () => {
    const { user, feedPath } = await takenOverAccount()
    const owner = await resetBy(user)
    const link = linkFor(await passwordNotice(user), 'Remove all of them')
    const browser = new WebClient()
    await browser.get(link)
    await expectRefused(await browser.post(link, {}))
    const elsewhere = await browser.post(link, {}, { headers: { 'Sec-Fetch-Site': 'cross-site' } })
    await expectRefused(elsewhere)
    expect(await attached(owner.id, feedPath)).toEqual(EVERYTHING)
  })

  it('of a deleted account answers 410', async () => {
    const { user } = await takenOverAccount()
    const owner = await resetBy(user)
    const link = linkFor(await passwordNotice(user), '- A Telegram chat')
    const signedIn = await api('POST', '/auth/signin', {
      body: { email: owner.email, password: owner.password },
    })
    const deleted = await api('DELETE', '/user/delete-account', {
      token: signedIn.body.accessToken,
    })
    expect(deleted.status).toBe(200)
    expectPage(await new WebClient().get(link), 410)
  })
})

describe('the account page', () => {
  it('lists what is linked; its button signs out everywhere and unlinks it all', async () => {
    const { user, feedPath } = await takenOverAccount()
    const browser = new WebClient()
    const signin = await browser.submit('/app/signin', '/app/signin', {
      email: user.email,
      password: user.password,
    })
    expect(signin.status).toBe(303)
    const page = await browser.get('/app/account')
    expectPage(page, 200)
    expect(await texts(page, '#linked-destinations li')).toHaveLength(5)

    await expectRefused(await browser.post('/app/account/sign-out-everywhere', {}))
    expect(await attached(user.id, feedPath)).toEqual(EVERYTHING)

    const cookie = browser.cookies.get(SESSION_COOKIE)!
    const done = await browser.post('/app/account/sign-out-everywhere', {}, { csrf: page.csrf })
    expect(done.status).toBe(303)
    expect(WebClient.location(done)).toBe('/app/signin?notice=signed-out-everywhere')
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false)
    const landed = await browser.get(WebClient.location(done))
    expect(await noticeOf(landed)).toMatch(/^Every session ended and every destination/)

    expect(await attached(user.id, feedPath)).toEqual({
      feed: false,
      telegram: false,
      discord: false,
      push: false,
      phone: false,
    })
    const refresh = await api('POST', '/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    })
    expect(refresh.status).toBe(401)
    // This browser's old cookie no longer opens the account.
    browser.cookies.set(SESSION_COOKIE, cookie)
    const after = await browser.get('/app/account')
    expect(after.status).toBe(303)
    expect(WebClient.location(after)).toMatch(/^\/app\/signin/)
  })

  it('says so when only the email address gets alerts', async () => {
    const user = await createUser()
    const browser = new WebClient()
    await browser.submit('/app/signin', '/app/signin', {
      email: user.email,
      password: user.password,
    })
    const page = await browser.get('/app/account')
    expect((await selectOne(page.html, '#linked-destinations')).text).toBe(
      'Your alerts go to your email address only.',
    )
  })
})

describe('POST /user/sign-out-everywhere', () => {
  it('ends every session, its own too, and unlinks everything', async () => {
    const { user, feedPath } = await takenOverAccount()
    const other = await api('POST', '/auth/signin', {
      body: { email: user.email, password: user.password },
    })
    expect(other.status).toBe(200)
    expect((await api('POST', '/user/sign-out-everywhere')).status).toBe(401)

    const res = await api('POST', '/user/sign-out-everywhere', { token: user.accessToken })
    expect(res.status).toBe(200)
    expect(await attached(user.id, feedPath)).toEqual({
      feed: false,
      telegram: false,
      discord: false,
      push: false,
      phone: false,
    })
    for (const refreshToken of [user.refreshToken, other.body.refreshToken]) {
      expect((await api('POST', '/auth/refresh', { body: { refreshToken } })).status).toBe(401)
    }
    // The second area checks the session: the caller's own token stops at once.
    const again = await api('POST', '/user/sign-out-everywhere', { token: user.accessToken })
    expect(again.status).toBe(401)
  })
})
