// CSRF under /app: every state-changing request needs the synchronizer token of its session (or,
// before sign-in, of its browser's __Host-csrf secret) and must come from our own pages. A refusal
// is a 403 page (never a 500) and changes nothing.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { select, selectOne } from './helpers/html.ts'
import { createUser, uniqueEmail, uniquePassword, type TestUser } from './helpers/users.ts'
import { parseSetCookie, setCookies, setsCookie, WebClient, type WebPage } from './helpers/web.ts'

async function expectRefused(page: WebPage) {
  expect(page.status, page.html).toBe(403)
  expect(page.res.headers.get('Content-Type')).toMatch(/^text\/html/)
  expect(page.res.headers.get('Cache-Control')).toBe('no-store')
  expect((await selectOne(page.html, 'h1')).text).toBe('This form was refused')
}

const accountsWith = async (email: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?')
    .bind(email)
    .first<{ n: number }>())!.n

async function signedIn(user: TestUser) {
  const client = new WebClient()
  const answer = await client.submit('/app/signin', '/app/signin', {
    email: user.email,
    password: user.password,
  })
  expect(answer.status).toBe(303)
  return client
}

describe('the token', () => {
  it('comes with every form page: the meta tag, each form, and the browser cookie it is bound to', async () => {
    const client = new WebClient()
    const page = await client.get('/app/signup')
    const cookie = setCookies(page.res)
      .map(parseSetCookie)
      .find((c) => c.name === '__Host-csrf')
    expect(cookie?.attributes).toMatchObject({
      path: '/',
      httponly: true,
      secure: true,
      samesite: 'Lax',
    })
    // 32 bytes of pad and 32 of the HMAC under it.
    expect(page.csrf).toMatch(/^[A-Za-z0-9_-]{86}$/)
    const fields = await select(page.html, 'form[method="post"] input[name="_csrf"]')
    expect(fields.length).toBeGreaterThan(0)
    for (const field of fields) expect(field.attrs.value).toBe(page.csrf)
    // Masked anew on every answer (nothing constant for a compression side channel to find), yet
    // bound to the same browser secret: a form from an earlier page still goes through.
    const later = await client.get('/app/signin')
    expect(later.csrf).not.toBe(page.csrf)
    const user = await createUser()
    const answer = await client.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf: page.csrf },
    )
    expect(answer.status).toBe(303)
  })

  it('a form posted without it, with a wrong one or with another browser’s is refused, and nothing changes', async () => {
    const client = new WebClient()
    const page = await client.get('/app/signup')
    const stranger = await new WebClient().get('/app/signup')
    const tokens: (string | false)[] = [
      false,
      'x',
      // The first character: the last one of base64url carries only 2 bits, and may decode alike.
      page.csrf!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      page.csrf!.slice(0, 43),
      stranger.csrf!,
    ]
    for (const csrf of tokens) {
      const email = uniqueEmail()
      const answer = await client.post(
        '/app/signup',
        { name: 'Mallory', email, password: uniquePassword() },
        { csrf },
      )
      await expectRefused(answer)
      expect(await accountsWith(email), `no account for token ${csrf}`).toBe(0)
      expect(setsCookie(answer.res, '__Host-session'), 'no session').toBe(false)
    }
  })

  it('a browser without its secret cookie cannot use a token at all', async () => {
    const client = new WebClient()
    const page = await client.get('/app/signin')
    client.cookies.delete('__Host-csrf')
    const user = await createUser()
    await expectRefused(
      await client.post(
        '/app/signin',
        { email: user.email, password: user.password },
        { csrf: page.csrf },
      ),
    )
  })

  it('signed in, the token is the session’s: one of the sign-in page or another session is refused', async () => {
    const user = await createUser()
    const client = await signedIn(user)
    const landing = await client.get('/app/')
    expect(landing.status).toBe(200)
    const other = await signedIn(await createUser())
    const otherToken = (await other.get('/app/')).csrf!
    expect(otherToken).not.toBe(landing.csrf)
    await expectRefused(await client.post('/app/signout', {}, { csrf: otherToken }))
    expect((await client.get('/app/')).status, 'still signed in').toBe(200)
  })

  it('may come in the X-CSRF-Token header, as a page script would send it', async () => {
    const client = await signedIn(await createUser())
    const { csrf } = await client.get('/app/')
    const res = await client.fetch('/app/signout', {
      method: 'POST',
      headers: {
        'X-CSRF-Token': csrf!,
        Origin: 'https://api.test',
        'Sec-Fetch-Site': 'same-origin',
      },
    })
    expect(res.status).toBe(303)
    expect((await client.get('/app/')).status, 'signed out').toBe(303)
  })
})

describe('the origin', () => {
  const crossSite: Record<string, string>[] = [
    { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    { Origin: 'https://evil.example' },
    { Origin: 'null' },
    { 'Sec-Fetch-Site': 'cross-site', Origin: '' },
    { 'Sec-Fetch-Site': 'same-site', Origin: 'https://app.api.test' },
  ]

  it('a cross-site or same-site post is refused even with a valid token', async () => {
    const user = await createUser()
    const client = await signedIn(user)
    const { csrf } = await client.get('/app/')
    for (const headers of crossSite) {
      const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''))
      const fetched = await client.fetch('/app/signout', {
        method: 'POST',
        body: new URLSearchParams({ _csrf: csrf! }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...clean },
      })
      expect(fetched.status, JSON.stringify(headers)).toBe(403)
    }
    expect((await client.get('/app/')).status, 'still signed in').toBe(200)
  })

  it('another site cannot sign a browser out, though its post arrives without the Lax cookie', async () => {
    const client = await signedIn(await createUser())
    const session = client.cookies.get('__Host-session')!
    client.cookies.delete('__Host-session')
    const res = await client.fetch('/app/signout', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    })
    expect(res.status).toBe(403)
    expect(setsCookie(res, '__Host-session'), 'the cookie is not cleared').toBe(false)
    client.cookies.set('__Host-session', session)
    expect((await client.get('/app/')).status, 'still signed in').toBe(200)
  })

  it('Origin: null is ours only beside Sec-Fetch-Site: same-origin (a no-referrer policy sends it)', async () => {
    const user = await createUser()
    const client = new WebClient()
    const page = await client.get('/app/signin')
    expect((await selectOne(page.html, 'meta[name="referrer"]')).attrs.content).toBe('same-origin')
    const body = new URLSearchParams({
      _csrf: page.csrf!,
      email: user.email,
      password: user.password,
    })
    const post = (headers: Record<string, string>) =>
      client.fetch('/app/signin', {
        method: 'POST',
        body: body.toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      })
    expect((await post({ Origin: 'null' })).status).toBe(403)
    expect((await post({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(303)
  })

  it('a client that sends neither header (no browser) is judged by the token alone', async () => {
    const user = await createUser()
    const client = new WebClient()
    const page = await client.get('/app/signin')
    const res = await client.fetch('/app/signin', {
      method: 'POST',
      body: new URLSearchParams({
        _csrf: page.csrf!,
        email: user.email,
        password: user.password,
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(303)
  })

  it('APP_URL’s origin counts as ours (a proxy in front may rewrite the host)', async () => {
    const user = await createUser()
    const client = new WebClient({ APP_URL: 'https://alerts.example.com' })
    const page = await client.get('/app/signin')
    const answer = await client.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf: page.csrf, headers: { Origin: 'https://alerts.example.com' } },
    )
    expect(answer.status).toBe(303)
  })
})
