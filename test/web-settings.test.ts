// The settings page of the web app (/app/settings): every section saves through its own form and
// reads back through the API; bad input is the page again, 400, with each message next to its
// field; a form without its CSRF token is refused; a signed-out browser is sent to sign in; the
// push requests of the page's script; the API's limits; never a 500.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { listPushSubscriptions } from '../src/users/push-subscriptions.ts'
import { CONTENT_SECURITY_POLICY } from '../src/web/page-headers.ts'
import { select, selectOne } from './helpers/html.ts'
import { PROVIDERS, pushKeys } from './helpers/notifications.ts'
import { lastOutboxCode, uniquePhone, WHATSAPP_OUTBOX } from './helpers/phone.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'
import { WebClient, type WebPage } from './helpers/web.ts'
import { BASE } from './helpers/worker.ts'

beforeEach(() => standIn.reset())

const SETTINGS = '/app/settings'

/** A new account (its address proven unless `verified: false`), signed in on a browser. */
async function signedIn(bindings: Partial<Env> = {}, { verified = true } = {}) {
  const user = await createUser({ verified })
  const client = new WebClient(bindings)
  const page = await client.submit('/app/signin', '/app/signin', {
    email: user.email,
    password: user.password,
  })
  expect(page.status, page.html).toBe(303)
  return { user, client }
}

const profileOf = async (user: TestUser) => {
  const res = await api('GET', '/users/profile', { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body
}

function expectPage(page: WebPage, status: number) {
  expect(page.status, page.html.slice(0, 2000)).toBe(status)
  expect(page.res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8')
  expect(page.res.headers.get('Cache-Control')).toBe('no-store')
  expect(page.res.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
}

/** Opens the settings page and posts `fields` to /app/settings/<form> with its token. */
async function save(client: WebClient, form: string, fields: Record<string, string | string[]>) {
  return client.submit(SETTINGS, `${SETTINGS}/${form}`, fields)
}

/** A save that worked: back to the section, which then says so. */
async function expectSaved(page: WebPage, client: WebClient, saved: string, notice: RegExp) {
  expect(page.status, page.html.slice(0, 3000)).toBe(303)
  const location = page.res.headers.get('Location')!
  expect(location).toMatch(new RegExp(`^/app/settings\\?saved=${saved}#`))
  const back = await client.get(WebClient.location(page))
  expectPage(back, 200)
  const section = location.split('#')[1]
  expect((await selectOne(back.html, `#${section} #notice`)).text).toMatch(notice)
  return back
}

async function fieldError(page: WebPage, name: string) {
  const input = await select(page.html, `[name="${name}"]`)
  expect(input.length, `an input named ${name}`).toBeGreaterThan(0)
  expect(input[0].attrs['aria-invalid'], `${name} is marked invalid`).toBe('true')
  expect(input[0].attrs['aria-describedby']).toContain(`field-${name}-error`)
  return (await selectOne(page.html, `#field-${name}-error`)).text
}

/** The message of a group of inputs (a fieldset), tied to the group by aria-describedby. */
async function groupError(page: WebPage, name: string) {
  const groups = await select(page.html, 'fieldset[aria-describedby]')
  const group = groups.find((g) => g.attrs['aria-describedby'].includes(`field-${name}-error`))
  expect(group, `a group described by its ${name} error`).toBeTruthy()
  return (await selectOne(page.html, `#field-${name}-error`)).text
}

const formErrors = async (page: WebPage) =>
  (await select(page.html, '#form-errors p, #form-errors li')).map((e) => e.text)

const valueOf = async (page: WebPage, name: string) =>
  (await selectOne(page.html, `input[name="${name}"]`)).attrs.value

const selectedOf = async (page: WebPage, name: string) =>
  (await select(page.html, `select[name="${name}"] option[selected]`)).map((o) => o.attrs.value)

const checkedOf = async (page: WebPage, name: string) =>
  (await select(page.html, `input[name="${name}"][checked]`)).map((i) => i.attrs.value)

describe('the page', () => {
  it('sends a signed-out browser to sign in, and back to the settings afterwards', async () => {
    const client = new WebClient()
    const page = await client.get(SETTINGS)
    expect(page.status).toBe(303)
    expect(WebClient.location(page)).toBe('/app/signin?next=%2Fapp%2Fsettings')

    // A form posted after the session ended: sign in, then the page (not the form's address).
    const { csrf } = await client.get('/app/signin')
    const post = await client.post(`${SETTINGS}/alerts`, { alertFrequency: 'daily' }, { csrf })
    expect(post.status).toBe(303)
    expect(WebClient.location(post)).toBe('/app/signin?next=%2Fapp%2Fsettings%2Falerts')
    const user = await createUser()
    const signin = await client.post(
      '/app/signin?next=%2Fapp%2Fsettings%2Falerts',
      { email: user.email, password: user.password },
      { csrf },
    )
    expect(WebClient.location(signin)).toBe('/app/settings/alerts')
    expect(WebClient.location(await client.get('/app/settings/alerts'))).toBe(SETTINGS)
  })

  it('shows every section with a labelled input for each field, each form posting with a token', async () => {
    const { client } = await signedIn()
    const page = await client.get(SETTINGS)
    expectPage(page, 200)
    expect((await selectOne(page.html, 'main h1')).text).toBe('Settings')
    const current = await selectOne(page.html, 'nav a[aria-current="page"]')
    expect(current.attrs.href).toBe(SETTINGS)
    const sections = (await select(page.html, 'main section')).map((s) => s.attrs.id)
    expect(sections).toEqual([
      'platforms',
      'alerts',
      'lead-times',
      'quiet-hours',
      'noise-filters',
      'channels',
      'phone',
      'telegram',
      'discord',
      'slack',
      'push',
      'calendar',
    ])
    const contents = await select(page.html, 'nav.settings-contents a')
    expect(contents.map((a) => a.attrs.href)).toEqual(sections.map((id) => `#${id}`))
    const forms = await select(page.html, 'main form')
    expect(forms.length).toBeGreaterThanOrEqual(9)
    for (const form of forms) {
      expect(form.attrs.method).toBe('post')
      expect(form.attrs.action).toMatch(/^\/app\/settings\/[a-z/-]+$/)
    }
    expect((await select(page.html, 'main form input[name="_csrf"]')).length).toBe(forms.length)
    for (const input of await select(page.html, 'main input:not([type="hidden"]), main select')) {
      const labels = await select(page.html, `label[for="${input.attrs.id}"]`)
      const named = labels.length === 1 || input.attrs['aria-label']
      expect(named, `a label for ${input.attrs.name ?? input.attrs.id}`).toBeTruthy()
    }
    // Ids are unique: every label and description finds its one element.
    const ids = (await select(page.html, '[id]')).map((e) => e.attrs.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('shows the stored preferences: defaults of a new account', async () => {
    // Not yet verified, so the email channel says what it waits for.
    const { client } = await signedIn({}, { verified: false })
    const page = await client.get(SETTINGS)
    expect(await checkedOf(page, 'platforms')).toEqual(['codeforces', 'leetcode'])
    expect(await checkedOf(page, 'alertFrequency')).toEqual(['immediate'])
    expect(await selectedOf(page, 'timezone')).toEqual(['UTC'])
    expect(await valueOf(page, 'leadAmount1')).toBe('1')
    expect(await selectedOf(page, 'leadUnit1')).toEqual(['days'])
    expect(await valueOf(page, 'leadAmount2')).toBe('')
    expect((await selectOne(page.html, '#lead-times-now')).text).toMatch(/1 day before/)
    expect(await checkedOf(page, 'quietEnabled')).toEqual([])
    expect(await checkedOf(page, 'email')).toEqual(['on'])
    expect(await checkedOf(page, 'whatsapp')).toEqual(['on'])
    expect(await checkedOf(page, 'push')).toEqual([])
    expect((await selectOne(page.html, '#channel-email-status')).text).toMatch(/verified first/)
    expect((await selectOne(page.html, '#phone-state')).text).toMatch(/No phone number/)
    expect((await selectOne(page.html, '#calendar-state')).text).toMatch(/No feed address/)
  })

  it('says nothing for a notice it does not know', async () => {
    const { client } = await signedIn()
    for (const saved of ['constructor', '__proto__', 'nope']) {
      const page = await client.get(`${SETTINGS}?saved=${saved}`)
      expectPage(page, 200)
      expect(await select(page.html, '#notice')).toEqual([])
    }
  })
})

describe('preferences', () => {
  it('saves platforms and contest types, ticked and typed, and shows them again', async () => {
    const { user, client } = await signedIn()
    const answer = await save(client, 'platforms', {
      platforms: ['codeforces', 'atcoder'],
      contestTypes: ['div2', 'ABC'],
      otherTypes: 'Kotlin Heroes, april fools',
    })
    const back = await expectSaved(answer, client, 'platforms', /platforms and contest types/)
    const prefs = (await profileOf(user)).preferences
    expect(prefs.platforms).toEqual(['codeforces', 'atcoder'])
    expect(prefs.contestTypes).toEqual(['div2', 'ABC', 'Kotlin Heroes', 'april fools'])
    expect(await checkedOf(back, 'platforms')).toEqual(['codeforces', 'atcoder'])
    expect(await checkedOf(back, 'contestTypes')).toEqual(['div2', 'ABC'])
    expect(await valueOf(back, 'otherTypes')).toBe('Kotlin Heroes, april fools')

    // Nothing ticked: no platform, every type.
    await expectSaved(await save(client, 'platforms', {}), client, 'platforms', /saved/)
    const cleared = (await profileOf(user)).preferences
    expect(cleared.platforms).toEqual([])
    expect(cleared.contestTypes).toEqual([])
  })

  it('refuses an unknown platform next to the platforms, and keeps what was stored', async () => {
    const { user, client } = await signedIn()
    const page = await save(client, 'platforms', { platforms: ['codeforces', 'nosuchjudge'] })
    expectPage(page, 400)
    expect(await fieldError(page, 'platforms')).toBe('Platforms must contain valid platform names')
    // The form shows what was sent, not what is stored.
    expect(await checkedOf(page, 'platforms')).toEqual(['codeforces'])
    expect((await profileOf(user)).preferences.platforms).toEqual(['codeforces', 'leetcode'])
  })

  it('saves how often and the time zone, which the page names', async () => {
    const { user, client } = await signedIn()
    const answer = await save(client, 'alerts', {
      alertFrequency: 'daily',
      timezone: 'Asia/Kolkata',
    })
    const back = await expectSaved(answer, client, 'alerts', /time zone are saved/)
    const prefs = (await profileOf(user)).preferences
    expect(prefs.alertFrequency).toBe('daily')
    expect(prefs.timezone).toBe('Asia/Kolkata')
    expect(await checkedOf(back, 'alertFrequency')).toEqual(['daily'])
    expect(await selectedOf(back, 'timezone')).toEqual(['Asia/Kolkata'])
    // Offered under the name people know, not ICU's legacy Asia/Calcutta.
    expect(await select(back.html, 'option[value="Asia/Calcutta"]')).toEqual([])
    expect((await selectOne(back.html, '#timezone-name')).text).toMatch(
      /India Standard Time \(GMT\+05:30\)/,
    )
  })

  it('refuses an unknown time zone and frequency with their messages', async () => {
    const { user, client } = await signedIn()
    const page = await save(client, 'alerts', {
      alertFrequency: 'hourly',
      timezone: 'Mars/Olympus',
    })
    expectPage(page, 400)
    expect(await fieldError(page, 'timezone')).toBe('Time zone must be a valid IANA time zone')
    expect(await fieldError(page, 'alertFrequency')).toMatch(/each reminder, daily or weekly/)
    expect((await profileOf(user)).preferences.timezone).toBe('UTC')
  })

  it('saves reminder times typed as amounts and units, stored in minutes, longest first', async () => {
    const { user, client } = await signedIn()
    const answer = await save(client, 'lead-times', {
      leadAmount1: '15',
      leadUnit1: 'minutes',
      leadAmount2: '',
      leadUnit2: 'hours',
      leadAmount3: '2',
      leadUnit3: 'hours',
      leadAmount4: '1',
      leadUnit4: 'days',
      leadAmount5: '',
      leadUnit5: 'hours',
    })
    const back = await expectSaved(answer, client, 'lead-times', /reminder times are saved/)
    const prefs = (await profileOf(user)).preferences
    expect(prefs.leadTimes).toEqual([1440, 120, 15])
    expect(prefs.notifyBefore).toBe(24)
    const rows = []
    for (const row of [1, 2, 3, 4]) {
      rows.push([
        await valueOf(back, `leadAmount${row}`),
        (await selectedOf(back, `leadUnit${row}`))[0],
      ])
    }
    expect(rows).toEqual([
      ['1', 'days'],
      ['2', 'hours'],
      ['15', 'minutes'],
      ['', 'hours'],
    ])
    expect((await selectOne(back.html, '#lead-times-now')).text).toBe(
      'Now: 1 day, 2 hours, 15 minutes before each contest starts.',
    )
  })

  it('refuses reminder times out of bounds, repeated, missing or not numbers', async () => {
    const { user, client } = await signedIn()
    const outOfBounds = await save(client, 'lead-times', {
      leadAmount1: '3',
      leadUnit1: 'minutes',
      leadAmount2: '8',
      leadUnit2: 'days',
      leadAmount3: 'soon',
      leadUnit3: 'hours',
    })
    expectPage(outOfBounds, 400)
    expect(await fieldError(outOfBounds, 'leadAmount1')).toBe(
      'Reminder 1 must be between 5 minutes and 7 days before the start',
    )
    expect(await fieldError(outOfBounds, 'leadAmount2')).toMatch(/^Reminder 2 must be between/)
    expect(await fieldError(outOfBounds, 'leadAmount3')).toBe('Reminder 3 must be a whole number')
    // What was typed stays in the form.
    expect(await valueOf(outOfBounds, 'leadAmount3')).toBe('soon')

    const repeated = await save(client, 'lead-times', {
      leadAmount1: '60',
      leadUnit1: 'minutes',
      leadAmount2: '1',
      leadUnit2: 'hours',
    })
    expectPage(repeated, 400)
    expect(await groupError(repeated, 'leadTimes')).toMatch(/same time/)

    const none = await save(client, 'lead-times', { leadAmount1: '', leadUnit1: 'hours' })
    expectPage(none, 400)
    expect(await groupError(none, 'leadTimes')).toMatch(/at least one reminder time/)

    const badUnit = await save(client, 'lead-times', { leadAmount1: '2', leadUnit1: 'weeks' })
    expectPage(badUnit, 400)
    expect(await formErrors(badUnit)).toEqual([
      'The unit of Reminder 1 must be minutes, hours or days',
    ])
    expect((await profileOf(user)).preferences.leadTimes).toEqual([1440])
  })

  it('saves quiet hours, turns them off, and refuses a span that starts where it ends', async () => {
    const { user, client } = await signedIn()
    const on = await save(client, 'quiet-hours', {
      quietEnabled: 'on',
      quietStart: '23:00',
      quietEnd: '07:30',
    })
    const back = await expectSaved(on, client, 'quiet-hours', /quiet hours are saved/)
    expect((await profileOf(user)).preferences.quietHours).toEqual({ start: '23:00', end: '07:30' })
    expect(await checkedOf(back, 'quietEnabled')).toEqual(['on'])
    expect(await valueOf(back, 'quietStart')).toBe('23:00')

    const same = await save(client, 'quiet-hours', {
      quietEnabled: 'on',
      quietStart: '08:00',
      quietEnd: '08:00',
    })
    expectPage(same, 400)
    expect(await fieldError(same, 'quietEnabled')).toMatch(/must not start and end at the same/)
    const empty = await save(client, 'quiet-hours', {
      quietEnabled: 'on',
      quietStart: '',
      quietEnd: '7',
    })
    expectPage(empty, 400)
    expect(await fieldError(empty, 'quietStart')).toBe('Enter when quiet hours start, as HH:MM')
    expect(await fieldError(empty, 'quietEnd')).toBe('Enter when quiet hours end, as HH:MM')

    // Off, with the times still in the form: cleared.
    const off = await save(client, 'quiet-hours', { quietStart: '23:00', quietEnd: '07:30' })
    await expectSaved(off, client, 'quiet-hours', /saved/)
    expect((await profileOf(user)).preferences.quietHours).toBeNull()
  })

  it('saves the filters, clears them, and refuses a shortest longer than the longest', async () => {
    const { user, client } = await signedIn()
    const answer = await save(client, 'noise-filters', {
      minAmount: '30',
      minUnit: 'minutes',
      maxAmount: '5',
      maxUnit: 'hours',
      excludeWords: 'Unrated, Kotlin , ,april fools',
    })
    const back = await expectSaved(answer, client, 'noise-filters', /filters are saved/)
    expect((await profileOf(user)).preferences.filters).toEqual({
      minDuration: 30,
      maxDuration: 300,
      excludeWords: ['unrated', 'kotlin', 'april fools'],
    })
    expect(await valueOf(back, 'maxAmount')).toBe('5')
    expect(await selectedOf(back, 'maxUnit')).toEqual(['hours'])
    expect(await valueOf(back, 'excludeWords')).toBe('unrated, kotlin, april fools')
    expect((await selectOne(back.html, '#noise-filters-now')).text).toMatch(
      /shorter than 30 minutes; longer than 5 hours; named with “unrated”/,
    )

    const crossed = await save(client, 'noise-filters', {
      minAmount: '2',
      minUnit: 'days',
      maxAmount: '3',
      maxUnit: 'hours',
    })
    expectPage(crossed, 400)
    expect(await fieldError(crossed, 'minAmount')).toBe('Shortest must not be longer than Longest')
    const tooMany = await save(client, 'noise-filters', {
      excludeWords: Array.from({ length: 21 }, (_, i) => `w${i}`).join(','),
    })
    expectPage(tooMany, 400)
    expect(await fieldError(tooMany, 'excludeWords')).toMatch(/at most 20 words/)

    await expectSaved(await save(client, 'noise-filters', {}), client, 'noise-filters', /saved/)
    expect((await profileOf(user)).preferences.filters).toEqual({
      minDuration: null,
      maxDuration: null,
      excludeWords: [],
    })
  })

  it('saves the channels, every channel at once, and shows why the service turned one off', async () => {
    const { user, client } = await signedIn()
    // A hard bounce turned email off (as users/channel-blocks.ts records it).
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO channel_blocks (user_id, channel, reason, blocked_at) VALUES (?, 'email', 'bounced', ?)",
      ).bind(user.id, Date.UTC(2026, 0, 5, 10)),
      env.DB.prepare('UPDATE users SET notify_email = 0 WHERE id = ?').bind(user.id),
    ])
    const page = await client.get(SETTINGS)
    expect(await checkedOf(page, 'email')).toEqual([])
    const status = (await selectOne(page.html, '#channel-email-status')).text
    expect(status).toMatch(/emails to your address bounced/)
    expect(status).toMatch(/Since Mon, 5 Jan 2026, 10:00 UTC/)
    expect((await selectOne(page.html, 'input[name="email"]')).attrs['aria-describedby']).toBe(
      'channel-email-status',
    )

    const answer = await client.post(
      `${SETTINGS}/channels`,
      { email: 'on', push: 'on', telegram: 'on' },
      { csrf: page.csrf },
    )
    const back = await expectSaved(answer, client, 'channels', /channels are saved/)
    const profile = await profileOf(user)
    expect(profile.preferences.notificationChannels).toEqual({
      email: true,
      whatsapp: false,
      push: true,
      telegram: true,
      discord: false,
      slack: false,
    })
    // Turning email on again cleared the block.
    expect(profile.channelStatus).toEqual({})
    expect(await select(back.html, '#channel-email-status')).toEqual([])

    const odd = await client.post(`${SETTINGS}/channels`, { email: 'yes' }, { csrf: back.csrf })
    expectPage(odd, 400)
    expect(await fieldError(odd, 'email')).toBe('Email must be on or left out')
  })
})

describe('phone and WhatsApp', () => {
  it('saves a number, sends a code over WhatsApp and verifies the number with it', async () => {
    const { user, client } = await signedIn(WHATSAPP_OUTBOX)
    const phone = uniquePhone()
    const saved = await save(client, 'phone', { phoneNumber: ` ${phone} ` })
    const page = await expectSaved(saved, client, 'phone', /phone number is saved/)
    expect((await profileOf(user)).phoneNumber).toBe(phone)
    expect((await selectOne(page.html, '#phone-state')).text).toMatch(/is not verified yet/)

    const sent = await client.post(`${SETTINGS}/phone/send-code`, {}, { csrf: page.csrf })
    const back = await expectSaved(sent, client, 'phone-code', /sent a 6-digit code/)
    const code = await lastOutboxCode(phone)

    const wrong = await client.post(
      `${SETTINGS}/phone/verify`,
      { code: code === '000000' ? '111111' : '000000' },
      { csrf: back.csrf },
    )
    expectPage(wrong, 400)
    expect(await fieldError(wrong, 'code')).toMatch(/wrong, used or expired/)
    const malformed = await client.post(
      `${SETTINGS}/phone/verify`,
      { code: '12' },
      { csrf: back.csrf },
    )
    expectPage(malformed, 400)
    expect(await fieldError(malformed, 'code')).toBe('Type the 6 digits of the code')

    const verified = await client.post(`${SETTINGS}/phone/verify`, { code }, { csrf: back.csrf })
    const done = await expectSaved(verified, client, 'phone-verified', /number is verified/)
    expect((await profileOf(user)).phoneVerified).toBe(true)
    expect((await selectOne(done.html, '#phone-state')).text).toMatch(/is verified/)
    // Verified: nothing more to send.
    expect(await select(done.html, 'form[action="/app/settings/phone/send-code"]')).toEqual([])

    // Removing the number (an empty field) removes its verification too.
    await expectSaved(await save(client, 'phone', { phoneNumber: '' }), client, 'phone', /saved/)
    const removed = await profileOf(user)
    expect(removed.phoneNumber).toBeUndefined()
    expect(removed.phoneVerified).toBe(false)
  })

  it('says on the page when WhatsApp cannot send (503) or there is no number (400)', async () => {
    const { client } = await signedIn({ WHATSAPP_TOKEN: '', DEV_OUTBOX: 'false' })
    const none = await client.submit(SETTINGS, `${SETTINGS}/phone/send-code`, {})
    expectPage(none, 400)
    expect(await formErrors(none)).toEqual([
      'The account has no phone number; add one to the profile first',
    ])
    const saved = await save(client, 'phone', { phoneNumber: uniquePhone() })
    const page = await client.get(WebClient.location(saved))
    expect((await selectOne(page.html, '#whatsapp-unavailable')).text).toMatch(/not available/)
    const off = await client.post(`${SETTINGS}/phone/send-code`, {}, { csrf: page.csrf })
    expectPage(off, 503)
    expect(await formErrors(off)).toEqual(['WhatsApp delivery is not configured; no code was sent'])
  })

  it('counts wrong codes against the API’s failure budget: 5 from here, then a 429 page', async () => {
    const { user, client } = await signedIn(WHATSAPP_OUTBOX)
    await save(client, 'phone', { phoneNumber: uniquePhone() })
    const { csrf } = await client.get(SETTINGS)
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post(`${SETTINGS}/phone/verify`, { code: '000000' }, { csrf })
      expect(wrong.status).toBe(400)
    }
    const refused = await client.post(`${SETTINGS}/phone/verify`, { code: '000000' }, { csrf })
    expectPage(refused, 429)
    // The API's route spends the same account's budget (its per-account counter), on one key.
    const viaApi = await api('POST', '/users/phone/verify', {
      token: user.accessToken,
      body: { code: '000000' },
      ip: client.ip,
    })
    expect(viaApi.status).toBe(429)
  })

  it('refuses a number longer than the API allows, next to its field', async () => {
    const { client } = await signedIn()
    const page = await save(client, 'phone', { phoneNumber: '+1'.padEnd(40, '5') })
    expectPage(page, 400)
    expect(await fieldError(page, 'phoneNumber')).toBe(
      'Phone number must be at most 32 characters long',
    )
  })
})

describe('Telegram', () => {
  it('shows a one-time link to the bot, the linked state after /start, and unlinks', async () => {
    const bindings = { ...PROVIDERS, ALLOW_LOCAL_TARGETS: 'true' }
    const { user, client } = await signedIn(bindings)
    const page = await client.get(SETTINGS)
    expect((await selectOne(page.html, '#telegram-state')).text).toMatch(/Not linked/)
    const linked = await client.post(`${SETTINGS}/telegram/link`, {}, { csrf: page.csrf })
    expectPage(linked, 200)
    const link = await selectOne(linked.html, '#telegram-link a')
    expect(link.attrs.href).toMatch(/^https:\/\/t\.me\/ContestAlertTestBot\?start=[\w-]{43}$/)
    expect((await selectOne(linked.html, '#telegram #notice')).text).toMatch(/link to the bot/)

    // The chat presses Start: the bot's webhook links it.
    const token = new URL(link.attrs.href).searchParams.get('start')
    const start = await api('POST', '/telegram/webhook', {
      bindings,
      headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
      body: {
        update_id: 1,
        message: {
          message_id: 1,
          date: 1,
          chat: { id: 9_100_200_300, type: 'private' },
          text: `/start ${token}`,
        },
      },
    })
    expect(start.status).toBe(200)
    const after = await client.get(SETTINGS)
    expect((await selectOne(after.html, '#telegram-state')).text).toMatch(/is linked/)
    expect((await profileOf(user)).telegram).toEqual({ linked: true })

    const unlink = await client.post(`${SETTINGS}/telegram/unlink`, {}, { csrf: after.csrf })
    await expectSaved(unlink, client, 'telegram-unlinked', /unlinked/)
    const profile = await profileOf(user)
    expect(profile.telegram).toEqual({ linked: false })
    expect(profile.preferences.notificationChannels.telegram).toBe(false)
  })

  it('says Telegram is not available without a bot, and a link is refused (503)', async () => {
    const { client } = await signedIn({ TELEGRAM_BOT_TOKEN: '', TELEGRAM_BOT_USERNAME: '' })
    const page = await client.get(SETTINGS)
    expect((await selectOne(page.html, '#telegram-state')).text).toMatch(/not available/)
    const refused = await client.post(`${SETTINGS}/telegram/link`, {}, { csrf: page.csrf })
    expectPage(refused, 503)
  })
})

describe('Discord', () => {
  const URL_OK = 'https://discord.com/api/webhooks/123456789012345678/secret-Token_abc'

  it('sets a webhook (shown without its token), and removes it', async () => {
    const { user, client } = await signedIn()
    const answer = await save(client, 'discord', { discordWebhookUrl: ` ${URL_OK} ` })
    const back = await expectSaved(answer, client, 'discord', /webhook is saved/)
    const profile = await profileOf(user)
    expect(profile.discord).toEqual({
      webhookSet: true,
      maskedWebhookUrl: 'https://discord.com/api/webhooks/123456789012345678/…',
    })
    expect(profile.preferences.notificationChannels.discord).toBe(true)
    expect((await selectOne(back.html, '#discord-state')).text).toContain(
      'https://discord.com/api/webhooks/123456789012345678/…',
    )
    expect(back.html).not.toContain('secret-Token_abc')
    expect(await valueOf(back, 'discordWebhookUrl')).toBe('')

    const removed = await client.post(`${SETTINGS}/discord/remove`, {}, { csrf: back.csrf })
    await expectSaved(removed, client, 'discord-removed', /removed/)
    expect((await profileOf(user)).discord).toEqual({ webhookSet: false, maskedWebhookUrl: null })
  })

  it('refuses a URL that is no Discord webhook, or none, next to the field', async () => {
    const { user, client } = await signedIn()
    for (const [url, message] of [
      [
        'https://example.com/api/webhooks/123456789012345678/abc',
        /^Webhook URL must be a Discord webhook URL/,
      ],
      [`${URL_OK}?thread_id=1`, /^Webhook URL must not have a query string/],
      ['', /^Enter the webhook URL/],
      [`https://discord.com/api/webhooks/1/${'a'.repeat(600)}`, /^Webhook URL must be at most 512/],
    ] as const) {
      const page = await save(client, 'discord', { discordWebhookUrl: url })
      expectPage(page, 400)
      expect(await fieldError(page, 'discordWebhookUrl'), url).toMatch(message)
    }
    expect((await profileOf(user)).discord.webhookSet).toBe(false)
  })
})

describe('Slack', () => {
  const URL_OK = 'https://hooks.slack.com/services/T0AAA111/B0BBB222/slackSecret42'

  it('has its own section: sets a webhook (shown without its secret), refuses others, removes it', async () => {
    const { user, client } = await signedIn()
    const refused = await save(client, 'slack', {
      slackWebhookUrl: 'https://discord.com/api/webhooks/123456789012345678/abc',
    })
    expectPage(refused, 400)
    expect(await fieldError(refused, 'slackWebhookUrl')).toMatch(
      /^Webhook URL must be a Slack webhook URL/,
    )
    const answer = await save(client, 'slack', { slackWebhookUrl: URL_OK })
    const back = await expectSaved(answer, client, 'slack', /Slack webhook is saved/)
    const profile = await profileOf(user)
    expect(profile.slack).toEqual({
      webhookSet: true,
      maskedWebhookUrl: 'https://hooks.slack.com/services/T0AAA111/B0BBB222/…',
    })
    expect(profile.preferences.notificationChannels.slack).toBe(true)
    expect(profile.discord.webhookSet).toBe(false)
    expect((await selectOne(back.html, '#slack-state')).text).toContain(
      'https://hooks.slack.com/services/T0AAA111/B0BBB222/…',
    )
    expect(back.html).not.toContain('slackSecret42')
    // Slack is listed among the channels, ready now that its webhook is set.
    expect(await select(back.html, '#channel-slack-status')).toEqual([])

    const removed = await client.post(`${SETTINGS}/slack/remove`, {}, { csrf: back.csrf })
    await expectSaved(removed, client, 'slack-removed', /Slack webhook is removed/)
    expect((await profileOf(user)).slack).toEqual({ webhookSet: false, maskedWebhookUrl: null })
  })
})

describe('the private calendar feed', () => {
  it('makes an address shown once, which serves the feed until it is turned off', async () => {
    const { client } = await signedIn()
    const page = await client.get(SETTINGS)
    const made = await client.post(`${SETTINGS}/calendar`, {}, { csrf: page.csrf })
    expectPage(made, 200)
    const url = (await selectOne(made.html, '#calendar-url')).attrs.value
    expect(url).toMatch(/\/calendar\/[\w-]{43}\.ics$/)
    const webcal = (await selectOne(made.html, '#calendar-address a')).attrs.href
    expect(webcal).toBe(url.replace(/^https?:\/\//, 'webcal://'))
    const feedPath = new URL(url).pathname
    const feed = await client.fetch(feedPath)
    expect(feed.status).toBe(200)
    expect(feed.headers.get('Content-Type')).toMatch(/^text\/calendar/)

    // Reloaded: that there is one, never the address again.
    const later = await client.get(SETTINGS)
    expect((await selectOne(later.html, '#calendar-state')).text).toMatch(/was made on/)
    expect(later.html).not.toContain(feedPath)

    const revoked = await client.post(`${SETTINGS}/calendar/revoke`, {}, { csrf: later.csrf })
    await expectSaved(revoked, client, 'calendar-revoked', /turned off/)
    expect((await client.fetch(feedPath)).status).toBe(404)
  })
})

describe('push', () => {
  const WEB_PUSH: Partial<Env> = { ...PROVIDERS, ALLOW_LOCAL_TARGETS: 'true', DEV_OUTBOX: 'false' }

  /** A request of the page's script: JSON, the token of the page's meta in X-CSRF-Token. */
  function script(client: WebClient, method: string, path: string, csrf?: string, body?: unknown) {
    return client.fetch(path, {
      method,
      headers: {
        Accept: 'application/json',
        'Sec-Fetch-Site': 'same-origin',
        Origin: new URL(BASE).origin,
        ...(csrf && { 'X-CSRF-Token': csrf }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }

  it('has the buttons of the page script contract', async () => {
    const { client } = await signedIn(WEB_PUSH)
    const page = await client.get(SETTINGS)
    const toggle = await selectOne(page.html, 'button[data-push-toggle]')
    expect(toggle.attrs).toMatchObject({
      type: 'button',
      'aria-pressed': 'false',
      'aria-controls': 'push-status',
      'data-subscribe-url': '/app/settings/push/subscribe',
      'data-unsubscribe-url': '/app/settings/push/unsubscribe',
    })
    const tester = await selectOne(page.html, 'button[data-push-test]')
    expect(tester.attrs).toMatchObject({
      'aria-controls': 'push-status',
      'data-test-url': '/app/settings/push/test',
    })
    const status = await selectOne(page.html, '#push-status')
    expect(status.attrs.role).toBe('status')
    expect(status.text).toBe('')
    // Without VAPID keys the page says so before anyone clicks.
    const off = new WebClient({ VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '' })
    const user = await createUser()
    await off.submit('/app/signin', '/app/signin', { email: user.email, password: user.password })
    expect((await selectOne((await off.get(SETTINGS)).html, '#push-status')).text).toBe(
      'Push notifications are not available on this server.',
    )
  })

  it('subscribes this browser, sends a test push to it and unsubscribes, as the API does', async () => {
    const { user, client } = await signedIn(WEB_PUSH)
    const { csrf } = await client.get(SETTINGS)
    const keys = await pushKeys()
    const body = { endpoint: keys.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
    const subscribed = await script(client, 'POST', '/app/settings/push/subscribe', csrf, body)
    expect(subscribed.status).toBe(201)
    expect(subscribed.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(((await subscribed.json()) as any).endpoint).toBe(keys.endpoint)
    const again = await script(client, 'POST', '/app/settings/push/subscribe', csrf, body)
    expect(again.status).toBe(200)
    const stored = await listPushSubscriptions(createDb(env.DB), user.id)
    expect(stored.map((s) => s.endpoint)).toEqual([keys.endpoint])
    const page = await client.get(SETTINGS)
    expect((await selectOne(page.html, '#push-state')).text).toMatch(/^1 browser gets push/)

    const tested = await script(client, 'POST', '/app/settings/push/test', csrf)
    expect(tested.status).toBe(200)
    expect(await tested.json()).toMatchObject({
      enabled: true,
      subscriptions: 1,
      accepted: 1,
      message: 'Test notification sent to 1 browser.',
    })
    expect((await standIn.requests('/push/')).length).toBe(1)

    const removed = await script(client, 'DELETE', '/app/settings/push/unsubscribe', csrf, {
      endpoint: keys.endpoint,
    })
    expect(removed.status).toBe(200)
    expect(await listPushSubscriptions(createDb(env.DB), user.id)).toEqual([])
    const gone = await script(client, 'DELETE', '/app/settings/push/unsubscribe', csrf, {
      endpoint: keys.endpoint,
    })
    expect(gone.status).toBe(404)
    // Nothing to test any more: said in words the page shows.
    const nothing = await script(client, 'POST', '/app/settings/push/test', csrf)
    expect(nothing.status).toBe(400)
    expect(((await nothing.json()) as any).message).toMatch(/No push subscription/)
  })

  it('refuses a script request without its token (403), signed out (401), or malformed (400)', async () => {
    const { client } = await signedIn(WEB_PUSH)
    const { csrf } = await client.get(SETTINGS)
    const keys = await pushKeys()
    const body = { endpoint: keys.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
    expect(
      (await script(client, 'POST', '/app/settings/push/subscribe', undefined, body)).status,
    ).toBe(403)

    const bad = await script(client, 'POST', '/app/settings/push/subscribe', csrf, {
      endpoint: 'ftp://nope',
      keys: { p256dh: 'x', auth: 'y' },
      extra: 1,
    })
    expect(bad.status).toBe(400)
    const answer = (await bad.json()) as any
    expect(answer.statusCode).toBe(400)
    expect(answer.message).toEqual(
      expect.arrayContaining([
        'endpoint must be an https URL',
        'keys.p256dh must be a base64url-encoded P-256 public key',
      ]),
    )
    const unknownHost = await script(client, 'POST', '/app/settings/push/subscribe', csrf, {
      ...body,
      endpoint: 'https://push.example.test/send/1',
    })
    expect(unknownHost.status).toBe(400)
    const notJson = await client.fetch('/app/settings/push/subscribe', {
      method: 'POST',
      body: 'not json',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'Sec-Fetch-Site': 'same-origin',
        'X-CSRF-Token': csrf!,
      },
    })
    expect(notJson.status).toBe(400)

    const signedOut = new WebClient(WEB_PUSH)
    const { csrf: browserToken } = await signedOut.get('/app/signin')
    const refused = await script(signedOut, 'POST', '/app/settings/push/test', browserToken)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('Content-Type')).toMatch(/^application\/json/)
  })

  it('allows 5 test pushes in 15 minutes per user, counted with the API’s', async () => {
    const { user, client } = await signedIn(WEB_PUSH)
    const { csrf } = await client.get(SETTINGS)
    const keys = await pushKeys()
    const body = { endpoint: keys.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
    await script(client, 'POST', '/app/settings/push/subscribe', csrf, body)
    for (let i = 0; i < 4; i++) {
      expect((await script(client, 'POST', '/app/settings/push/test', csrf)).status).toBe(200)
    }
    const viaApi = await api('POST', '/users/push-subscriptions/test', {
      token: user.accessToken,
      bindings: WEB_PUSH,
    })
    expect(viaApi.status).toBe(200)
    const refused = await script(client, 'POST', '/app/settings/push/test', csrf)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Content-Type')).toMatch(/^application\/json/)
  })
})

describe('refusals', () => {
  const POSTS: [string, Record<string, string>][] = [
    ['platforms', { platforms: 'atcoder' }],
    ['alerts', { alertFrequency: 'weekly' }],
    ['lead-times', { leadAmount1: '10', leadUnit1: 'minutes' }],
    ['quiet-hours', { quietEnabled: 'on', quietStart: '22:00', quietEnd: '06:00' }],
    ['noise-filters', { minAmount: '10' }],
    ['channels', {}],
    ['phone', { phoneNumber: '+14155550123' }],
    ['phone/send-code', {}],
    ['phone/verify', { code: '123456' }],
    ['telegram/link', {}],
    ['telegram/unlink', {}],
    ['discord', { discordWebhookUrl: 'https://discord.com/api/webhooks/123456789012345678/abc' }],
    ['slack', { slackWebhookUrl: 'https://hooks.slack.com/services/T01/B01/abc' }],
    ['slack/remove', {}],
    ['discord/remove', {}],
    ['calendar', {}],
    ['calendar/revoke', {}],
  ]

  it('refuses every form without its CSRF token, or from another site (403), changing nothing', async () => {
    const { user, client } = await signedIn()
    const { csrf } = await client.get(SETTINGS)
    const before = await profileOf(user)
    for (const [form, fields] of POSTS) {
      const missing = await client.post(`${SETTINGS}/${form}`, fields)
      expect(missing.status, form).toBe(403)
      expect((await selectOne(missing.html, 'h1')).text).toBe('This form was refused')
      const crossSite = await client.post(`${SETTINGS}/${form}`, fields, {
        csrf,
        headers: { Origin: 'https://evil.test', 'Sec-Fetch-Site': 'cross-site' },
      })
      expect(crossSite.status, form).toBe(403)
    }
    const after = await profileOf(user)
    expect(after.preferences).toEqual(before.preferences)
    expect(after.phoneNumber).toBeUndefined()
  })

  it('answers a field the form lacks, a repeated field, a file or no form at all with a 400 page', async () => {
    const { client } = await signedIn()
    const { csrf } = await client.get(SETTINGS)
    const unknown = await client.post(
      `${SETTINGS}/alerts`,
      { timezone: 'UTC', role: 'admin' },
      { csrf },
    )
    expectPage(unknown, 400)
    expect(await formErrors(unknown)).toEqual(['This form has no field named role.'])
    const repeated = await client.post(
      `${SETTINGS}/alerts`,
      { timezone: ['UTC', 'Asia/Tokyo'] },
      { csrf },
    )
    expectPage(repeated, 400)
    expect(await fieldError(repeated, 'timezone')).toBe('Time zone must be one value')
    for (const [form] of POSTS.filter(([f]) =>
      ['telegram/unlink', 'calendar', 'discord/remove', 'slack/remove'].includes(f),
    )) {
      const extra = await client.post(`${SETTINGS}/${form}`, { surprise: '1' }, { csrf })
      expectPage(extra, 400)
      expect(await formErrors(extra)).toEqual(['This form has no field named surprise.'])
    }

    const file = new FormData()
    file.append('_csrf', csrf!)
    file.append('otherTypes', new File(['x'], 'x.txt'))
    const withFile = await client.fetch(`${SETTINGS}/platforms`, {
      method: 'POST',
      body: file,
      headers: { Origin: new URL(BASE).origin, 'Sec-Fetch-Site': 'same-origin' },
    })
    expect(withFile.status).toBe(400)
    const json = await client.fetch(`${SETTINGS}/lead-times`, {
      method: 'POST',
      body: '{"leadTimes":[10]}',
      headers: {
        'Content-Type': 'application/json',
        'Sec-Fetch-Site': 'same-origin',
        'X-CSRF-Token': csrf!,
      },
    })
    expect(json.status).toBe(400)
    expect(await json.text()).toContain('The form could not be read')
  })

  it('shares the profile update limit with the API: 20 saves in 15 minutes, then a 429 page', async () => {
    const { user, client } = await signedIn()
    const { csrf } = await client.get(SETTINGS)
    for (let i = 0; i < 19; i++) {
      const page = await client.post(`${SETTINGS}/alerts`, { alertFrequency: 'weekly' }, { csrf })
      expect(page.status).toBe(303)
    }
    const viaApi = await api('PUT', '/users/profile', {
      token: user.accessToken,
      body: { name: 'Still Me' },
    })
    expect(viaApi.status).toBe(200)
    const refused = await client.post(`${SETTINGS}/alerts`, { alertFrequency: 'daily' }, { csrf })
    expectPage(refused, 429)
    expect((await selectOne(refused.html, 'h1')).text).toBe('Too many attempts')
    expect((await profileOf(user)).preferences.alertFrequency).toBe('weekly')
  })
})
