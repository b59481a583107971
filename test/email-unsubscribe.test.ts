// One-click unsubscribe (RFC 8058): the headers and footer link of optional email, the GET page
// that changes nothing, the POST that turns email off without a sign-in, and forged links refused.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { DAY_MS } from '../src/lib/time.ts'
import { unsubscribeToken } from '../src/users/unsubscribe-link.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  mailsTo,
  notificationsOf,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { api, createUser, lastMailTo, nextIp, type TestUser } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

beforeEach(resetNotifications)

const ONE_CLICK = 'List-Unsubscribe=One-Click'

/** Opens the link as a browser would (GET), or POSTs as a mail client does (RFC 8058 body). */
async function open(path: string, method: 'GET' | 'POST' = 'GET', body = ONE_CLICK) {
  const res = await call(path, {
    method,
    headers: {
      'CF-Connecting-IP': nextIp(),
      ...(method === 'POST' && { 'Content-Type': 'application/x-www-form-urlencoded' }),
    },
    body: method === 'POST' ? body : undefined,
  })
  return { status: res.status, headers: res.headers, html: await res.text() }
}

const emailOn = async (user: TestUser) => {
  const res = await api('GET', '/users/profile', { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body.preferences.notificationChannels.email as boolean
}

/** The path of a List-Unsubscribe header `<https://host/unsubscribe?token=...>`. */
function headerPath(value: string) {
  const url = /^<(.+)>$/.exec(value)
  expect(url, 'the header is one URL in angle brackets').not.toBeNull()
  const link = new URL(url![1])
  expect(`${link.origin}`).toBe(new URL(env.APP_URL).origin)
  return { url: url![1], path: `${link.pathname}${link.search}` }
}

/** A reminder run for a fresh recipient and the mail it sent them. */
async function remindedMail() {
  const e = testEnv()
  const user = await recipient()
  await addContests([contest(3)])
  await runScheduler(e)
  await deliverQueued(e)
  const [mail] = await mailsTo(user.email)
  expect(mail, 'the reminder was mailed').toBeDefined()
  return { e, user, mail: mail.message }
}

/** The next Monday, 09:00 UTC, at least a day away: when daily digests go out. */
function nextMondayNineUtc(): number {
  const d = new Date(Date.now() + DAY_MS)
  d.setUTCHours(9, 0, 0, 0)
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1)
  return d.getTime()
}

describe('optional email', () => {
  it('a reminder carries List-Unsubscribe headers and the same link in its footer', async () => {
    const { user, mail } = await remindedMail()
    expect(mail.headers['List-Unsubscribe-Post']).toBe(ONE_CLICK)
    const { url, path } = headerPath(mail.headers['List-Unsubscribe'])
    expect(path).toBe(`/unsubscribe?token=${await unsubscribeToken(env, user.id)}`)
    expect(mail.text).toContain(`Unsubscribe from these emails: ${url}`)
    expect(mail.html).toContain(`href="${url}"`)
  })

  it('a digest carries them too', async () => {
    const monday = nextMondayNineUtc()
    const e = testEnv()
    const user = await recipient({ alertFrequency: 'daily' })
    await addContests([contest(3, {}, monday)], monday)
    await runScheduler(e, monday)
    await deliverQueued(e)
    const [mail] = await mailsTo(user.email)
    expect(mail.message.subject).toBe('Your daily contest digest: 1 contest')
    expect(mail.message.headers['List-Unsubscribe-Post']).toBe(ONE_CLICK)
    const { path } = headerPath(mail.message.headers['List-Unsubscribe'])
    expect(path).toBe(`/unsubscribe?token=${await unsubscribeToken(env, user.id)}`)
  })

  it('a verification code email is transactional and carries none', async () => {
    const user = await createUser()
    const { message } = await lastMailTo(user.email)
    expect(message.text).toMatch(/\b\d{6}\b/)
    expect(message.headers).toBeUndefined()
    expect(message.text).not.toContain('Unsubscribe')
  })
})

describe('the unsubscribe link', () => {
  it('GET shows a confirmation page whose form posts back, and changes nothing', async () => {
    const { user, mail } = await remindedMail()
    const { path } = headerPath(mail.headers['List-Unsubscribe'])
    const page = await open(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(page.html).toContain('Unsubscribe from these emails?')
    expect(page.html).toContain(`<form method="post" action="${path}">`)
    expect(page.html).toContain('name="List-Unsubscribe" value="One-Click"')
    expect(await emailOn(user)).toBe(true)
  })

  it('one-click POST turns email off without a sign-in; the next run mails nothing', async () => {
    const { e, user, mail } = await remindedMail()
    const { path } = headerPath(mail.headers['List-Unsubscribe'])
    const done = await open(path, 'POST')
    expect(done.status).toBe(200)
    expect(done.html).toContain('You are unsubscribed')
    expect(await emailOn(user)).toBe(false)

    // Posting again (a client retrying) is the same as once.
    expect((await open(path, 'POST')).status).toBe(200)

    await addContests([contest(5, { name: 'Codeforces Round After' })])
    await runScheduler(e)
    const after = (await notificationsOf(user.id)).filter((n) =>
      n.title.includes('Codeforces Round After'),
    )
    const emails = after.flatMap((n) => n.deliveries).filter((d) => d.channel === 'email')
    expect(after.length + emails.length, 'no notification and no email delivery').toBe(0)
  })

  it('POST with an empty body (a browser form without the field) unsubscribes too', async () => {
    const user = await recipient()
    const done = await open(
      `/unsubscribe?token=${await unsubscribeToken(env, user.id)}`,
      'POST',
      '',
    )
    expect(done.status).toBe(200)
    expect(await emailOn(user)).toBe(false)
  })

  it('a forged, changed or missing token gets the 400 page and changes nothing', async () => {
    const user = await recipient()
    const other = await recipient()
    const token = await unsubscribeToken(env, other.id)
    const forged = `${user.id}.${token.split('.')[1]}`
    for (const path of [
      `/unsubscribe?token=${forged}`,
      `/unsubscribe?token=${user.id}.${'A'.repeat(43)}`,
      `/unsubscribe?token=${user.id}`,
      '/unsubscribe',
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const page = await open(path, method)
        expect(page.status, `${method} ${path}`).toBe(400)
        expect(page.html).toContain('This link is not valid')
      }
    }
    expect(await emailOn(user)).toBe(true)
  })

  it('a mute link token is not an unsubscribe token', async () => {
    const { mail } = await remindedMail()
    const mute = /Mute it: \S+\?token=(\S+)/.exec(mail.text as string)
    expect(mute, 'the reminder has a mute link').not.toBeNull()
    const page = await open(`/unsubscribe?token=${mute![1]}`, 'POST')
    expect(page.status).toBe(400)
  })
})

describe('consent at send time', () => {
  it('a reminder already queued is not mailed once the user has unsubscribed', async () => {
    const e = testEnv()
    const user = await recipient()
    await addContests([contest(3)])
    await runScheduler(e)
    const token = await unsubscribeToken(env, user.id)
    expect((await open(`/unsubscribe?token=${token}`, 'POST')).status).toBe(200)
    await deliverQueued(e)
    expect(await mailsTo(user.email)).toHaveLength(0)
    const [reminder] = await notificationsOf(user.id)
    expect(reminder.deliveries[0]).toMatchObject({
      status: 'FAILED',
      error: 'Not sent: email is turned off',
    })
  })
})
