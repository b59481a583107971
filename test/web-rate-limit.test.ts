// The general rate limit and a web app session: a signed-in browser counts as its user (the
// Durable Object's 1000 per 15 minutes, the counter the user's API calls share), not as its
// address (KV's 100 for anonymous callers); an admin's session is exempt; a cookie that names no
// live session counts by address; the refusal is a page; the session is read once per request.
import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { selectOne } from './helpers/html.ts'
import { api, createAdmin, createUser } from './helpers/users.ts'
import { expectPage, SESSION_COOKIE, signedInBrowser } from './helpers/web-app.ts'
import { WebClient, type WebPage } from './helpers/web.ts'

const limitOf = (page: WebPage | { headers: Headers }) => {
  const headers = 'res' in page ? page.res.headers : page.headers
  return {
    limit: headers.get('X-RateLimit-Limit'),
    remaining: headers.get('X-RateLimit-Remaining'),
  }
}

/** A browser that sends its requests from `ip` (another browser's address). */
function browserAt(ip: string, bindings = {}) {
  const client = new WebClient(bindings)
  Object.assign(client, { ip })
  return client
}

function limiter(key: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key))
}

describe('the general limit of a web session', () => {
  it('counts the session’s user, on the counter the user’s API calls share, from any address', async () => {
    // Unverified, so no request of the sign-up's session has been counted yet.
    const user = await createUser({ verified: false })
    const browser = await signedInBrowser(user)
    expect(limitOf(await browser.get('/app/'))).toEqual({ limit: '1000', remaining: '999' })
    const fromApi = await api('GET', '/users/contests/subscriptions', { token: user.accessToken })
    expect(limitOf(fromApi)).toEqual({ limit: '1000', remaining: '998' })
    const laptop = await signedInBrowser(user)
    expect(limitOf(await laptop.get('/app/account'))).toEqual({ limit: '1000', remaining: '997' })

    // Another person at the same address: their own count, not the address's.
    const colleague = await createUser({ verified: false })
    const beside = browserAt(browser.ip)
    const signin = await beside.get('/app/signin')
    expect(limitOf(signin).limit, 'not signed in yet: the address').toBe('100')
    await beside.post(
      '/app/signin',
      { email: colleague.email, password: colleague.password },
      { csrf: signin.csrf },
    )
    expect(limitOf(await beside.get('/app/'))).toEqual({ limit: '1000', remaining: '999' })
  })

  it('counts a cookie that names no live session by its address', async () => {
    const user = await createUser()
    const browser = await signedInBrowser(user)
    const secret = browser.cookies.get(SESSION_COOKIE)!
    const page = await browser.get('/app/')
    await browser.post('/app/signout', {}, { csrf: page.csrf })
    browser.cookies.set(SESSION_COOKIE, secret)
    const after = await browser.get('/app/')
    expect(after.status).toBe(303)
    expect(limitOf(after).limit).toBe('100')
  })

  it('leaves an admin’s session unlimited, as an admin’s token', async () => {
    const admin = await createAdmin()
    const browser = await signedInBrowser(admin)
    const page = await browser.get('/app/')
    expectPage(page, 200)
    expect(limitOf(page)).toEqual({ limit: null, remaining: null })
  })

  it('reads the cookie only under /app: the cached home page counts by address', async () => {
    const browser = await signedInBrowser(await createUser())
    const home = await browser.fetch('/')
    expect(home.status).toBe(200)
    expect(home.headers.get('X-RateLimit-Limit')).toBe('100')
  })

  it('refuses the 1001st request with the web app’s 429 page, others at the address unaffected', async () => {
    // Unverified, so no request of the sign-up's session has been counted yet.
    const user = await createUser({ verified: false })
    const browser = await signedInBrowser(user)
    expect(limitOf(await browser.get('/app/')).remaining).toBe('999')
    // The window's other 999 requests, written to the user's counter at once: made one by one
    // (999 calls to the Durable Object) they took this test past the 5 s timeout under load.
    await runInDurableObject(limiter(`authenticated:user:${user.id}`), (_, state) => {
      state.storage.sql.exec('UPDATE fixed_window SET count = 1000')
    })
    const refused = await browser.get('/app/history')
    expectPage(refused, 429)
    expect((await selectOne(refused.html, 'h1')).text).toBe('Too many attempts')
    expect(Number(refused.res.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(limitOf(refused)).toEqual({ limit: '1000', remaining: '0' })
    // The API's own callers still get the JSON refusal.
    const fromApi = await api('GET', '/users/contests/subscriptions', { token: user.accessToken })
    expect(fromApi.status).toBe(429)
    const beside = browserAt(browser.ip)
    expectPage(await beside.get('/app/signin'), 200)
  })

  it('reads the session once per request, for the limit and the page alike', async () => {
    const user = await createUser()
    const statements: string[] = []
    const db = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'prepare') {
          return (sql: string) => {
            statements.push(sql)
            return target.prepare(sql)
          }
        }
        const value = Reflect.get(target, prop)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const browser = await signedInBrowser(user, { DB: db })
    statements.length = 0
    expectPage(await browser.get('/app/account'), 200)
    expect(statements.filter((sql) => /from "sessions"/i.test(sql))).toHaveLength(1)
  })
})
