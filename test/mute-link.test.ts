// The reminder email's mute link: carried per recipient, GET harmless, POST mutes, bad links paged.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { hmacKey, hmacSha256, toBase64Url } from '../src/lib/crypto.ts'
import { newId } from '../src/lib/ids.ts'
import { muteToken } from '../src/users/mute-link.ts'
import { addContests, contest } from './helpers/contests.ts'
import {
  deliverQueued,
  mailsTo,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { api, createUser, nextIp, type TestUser } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

beforeEach(resetNotifications)

const MUTE = '/subscriptions/mute'

/** Opens the link as a browser would (GET), or submits its page's form (POST). */
async function open(path: string, method: 'GET' | 'POST' = 'GET') {
  const res = await call(path, {
    method,
    headers: {
      'CF-Connecting-IP': nextIp(),
      ...(method === 'POST' && { 'Content-Type': 'application/x-www-form-urlencoded' }),
    },
    body: method === 'POST' ? '' : undefined,
  })
  return { status: res.status, headers: res.headers, html: await res.text() }
}

const subscriptionsOf = async (user: TestUser) => {
  const res = await api('GET', '/users/contests/subscriptions', { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body.subscriptions as { contestId: string; mode: string }[]
}

const linkFor = async (userId: string, contestId: string) =>
  `${MUTE}?token=${await muteToken(env, { userId, contestId })}`

/** The reminder email's mute link, as a path on this service, and the email itself. */
async function remindedLink(name = 'Codeforces Round 3001') {
  const e = testEnv()
  const user = await recipient()
  const [round] = await addContests([contest(3, { name })])
  await runScheduler(e)
  await deliverQueued(e)
  const [mail] = await mailsTo(user.email)
  expect(mail, 'the reminder was mailed').toBeDefined()
  const url = (mail.message.text as string).match(/Not interested in this contest\? Mute it: (\S+)/)
  expect(url, 'the text names the mute link').not.toBeNull()
  const link = new URL(url![1])
  return { user, round, mail: mail.message, link, path: `${link.pathname}${link.search}` }
}

describe('the reminder email', () => {
  it('carries the recipient’s mute link in the text and the HTML', async () => {
    const { user, round, mail, link, path } = await remindedLink()
    expect(link.origin).toBe('http://localhost:8787')
    expect(path).toBe(await linkFor(user.id, round.id))
    expect(mail.html).toContain(`Not interested in this contest? <a href="${link.href}"`)
  })
})

describe('GET /subscriptions/mute', () => {
  it('shows a confirmation page naming the contest and changes nothing', async () => {
    const { user, path } = await remindedLink('Codeforces Round 3002')
    const page = await open(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Content-Type')).toContain('text/html')
    expect(page.html).toContain('Codeforces Round 3002')
    expect(page.html).toContain(`<form method="post" action="${path}">`)
    expect(page.html).not.toContain('<script')
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'none'")
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    expect(await subscriptionsOf(user)).toEqual([])
  })

  it('escapes the contest name', async () => {
    const user = await createUser()
    const [round] = await addContests([contest(5, { name: `<b>"Round" & 'Co'</b>` })])
    const page = await open(await linkFor(user.id, round.id))
    expect(page.status).toBe(200)
    expect(page.html).toContain('&lt;b&gt;&quot;Round&quot; &amp; &#39;Co&#39;&lt;/b&gt;')
    expect(page.html).not.toContain('<b>')
  })
})

describe('POST /subscriptions/mute', () => {
  it('mutes the contest for the recipient and says so', async () => {
    const { user, round, path } = await remindedLink('Codeforces Round 3003')
    const done = await open(path, 'POST')
    expect(done.status).toBe(200)
    expect(done.html).toContain('Contest muted')
    expect(done.html).toContain('Codeforces Round 3003')
    expect(await subscriptionsOf(user)).toMatchObject([{ contestId: round.id, mode: 'mute' }])
    // A second press (or a resubmitted form) leaves it muted.
    expect((await open(path, 'POST')).status).toBe(200)
    expect(await subscriptionsOf(user)).toMatchObject([{ contestId: round.id, mode: 'mute' }])
  })

  it('turns a follow into a mute', async () => {
    const user = await createUser()
    const [round] = await addContests([contest(5)])
    await api('PUT', `/users/contests/${round.id}/subscription`, {
      token: user.accessToken,
      body: { mode: 'follow' },
    })
    expect((await open(await linkFor(user.id, round.id), 'POST')).status).toBe(200)
    expect(await subscriptionsOf(user)).toMatchObject([{ contestId: round.id, mode: 'mute' }])
  })
})

describe('links that do not work', () => {
  it('refuse forged, altered or missing tokens with a page, not a 500', async () => {
    const user = await createUser()
    const other = await createUser()
    const [round, second] = await addContests([contest(5), contest(6)])
    const token = await muteToken(env, { userId: user.id, contestId: round.id })
    const [userId, contestId, signature] = token.split('.')
    const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`
    // A signature under JWT_SECRET itself, not the derived key: never accepted.
    const rawKey = await hmacKey(env.JWT_SECRET!)
    const raw = toBase64Url(await hmacSha256(rawKey, `mute\n${user.id}\n${round.id}`))
    const refused = [
      `${MUTE}`,
      `${MUTE}?token=`,
      `${MUTE}?token=garbage`,
      `${MUTE}?token=${userId}.${contestId}.${flipped}`,
      `${MUTE}?token=${userId}.${second.id}.${signature}`,
      `${MUTE}?token=${other.id}.${contestId}.${signature}`,
      `${MUTE}?token=${userId}.${contestId}.${raw}`,
      `${MUTE}?token=${userId}.${contestId}.${signature}x`,
      `${MUTE}?token=${encodeURIComponent(`${userId}.${contestId}.<script>`)}`,
    ]
    for (const path of refused) {
      for (const method of ['GET', 'POST'] as const) {
        const page = await open(path, method)
        expect(page.status, `${method} ${path}`).toBe(400)
        expect(page.html).toContain('This link is not valid')
        expect(page.html).not.toContain('<script>')
      }
    }
    expect(await subscriptionsOf(user)).toEqual([])
    expect(await subscriptionsOf(other)).toEqual([])
  })

  it('say the link no longer works once the account is deleted', async () => {
    const user = await createUser()
    const [round] = await addContests([contest(5)])
    const path = await linkFor(user.id, round.id)
    const deleted = await api('DELETE', '/user/delete-account', { token: user.accessToken })
    expect(deleted.status).toBe(200)
    for (const method of ['GET', 'POST'] as const) {
      const page = await open(path, method)
      expect(page.status, method).toBe(410)
      expect(page.html).toContain('This link no longer works')
    }
    const { n } = (await env.DB.prepare(
      'SELECT count(*) AS n FROM contest_subscriptions WHERE user_id = ?',
    )
      .bind(user.id)
      .first<{ n: number }>())!
    expect(n).toBe(0)
  })

  it('say so when the contest has left the catalogue', async () => {
    const user = await createUser()
    const path = await linkFor(user.id, newId())
    for (const method of ['GET', 'POST'] as const) {
      const page = await open(path, method)
      expect(page.status, method).toBe(410)
      expect(page.html).toContain('This contest is no longer listed')
    }
    expect(await subscriptionsOf(user)).toEqual([])
  })
})
