// Sign in with Google on the web: the API's flow (state, nonce, PKCE, the same callback and account
// rules) with the web app as its client, ending in a cookie session instead of tokens, and bound
// to the browser that began it.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { findUserByEmail } from '../src/users/queries.ts'
import {
  atGoogle,
  GOOGLE,
  googleProfile,
  scriptGoogle,
  unverifiedAccount,
  verifiedAccount,
} from './helpers/google.ts'
import { select, selectOne } from './helpers/html.ts'
import { standIn } from './helpers/stand-in.ts'
import { uniqueEmail } from './helpers/users.ts'
import { setsCookie, WebClient, type WebPage } from './helpers/web.ts'
import type { GoogleProfile } from './stand-ins/google-client.ts'

beforeEach(() => standIn.reset())

const googleBrowser = () => new WebClient(GOOGLE)

/** The path and query of an absolute redirect (APP_URL's origin is not the tests' BASE). */
const pathOf = (page: WebPage) => {
  const url = new URL(page.res.headers.get('Location')!)
  return url.pathname + url.search
}

/** Start in `client`, through Google, to the callback: the URL of /app/google/done it sends on. */
async function toDone(client: WebClient, profile: GoogleProfile, next?: string) {
  await scriptGoogle(profile)
  const query = next ? `?${new URLSearchParams({ next })}` : ''
  const started = await client.get(`/app/google/start${query}`)
  expect(started.status, started.html).toBe(302)
  const google = new URL(started.res.headers.get('Location')!)
  const callback = await client.get(await atGoogle(google))
  expect(callback.status, callback.html).toBe(302)
  const done = pathOf(callback)
  expect(done.startsWith('/app/google/done?')).toBe(true)
  return done
}

async function expectRefused(page: WebPage, message: RegExp) {
  expect(page.status, page.html).toBe(400)
  expect((await selectOne(page.html, '#form-errors')).text).toMatch(message)
  expect(setsCookie(page.res, '__Host-session')).toBe(false)
}

describe('Sign in with Google on the web', () => {
  it('creates the account of a new Google user and signs the browser in with a cookie', async () => {
    const client = googleBrowser()
    const profile = googleProfile({ name: 'Grace Hopper' })
    const done = await client.get(await toDone(client, profile))
    expect(done.status, done.html).toBe(303)
    expect(WebClient.location(done)).toBe('/app/?notice=google')
    expect(client.cookies.get('__Host-session')).toMatch(/^[\w-]{43}$/)
    const landing = await client.get('/app/?notice=google')
    expect(landing.status).toBe(200)
    expect((await selectOne(landing.html, '#signed-in-as')).text).toContain(profile.email)
    const user = await findUserByEmail(createDb(env.DB), profile.email)
    expect(user?.emailVerifiedAt).not.toBeNull()
    // No exchange code or Google token is left in any address: the final redirect drops them.
    expect(WebClient.location(done)).not.toMatch(/code=|state=/)
  })

  it('goes on to the page asked for, and only to one of the app', async () => {
    const client = googleBrowser()
    const done = await client.get(await toDone(client, googleProfile(), '/app/?notice=verified'))
    expect(WebClient.location(done)).toBe('/app/?notice=verified')
    const elsewhere = googleBrowser()
    const off = await elsewhere.get(
      await toDone(elsewhere, googleProfile(), 'https://evil.example'),
    )
    expect(WebClient.location(off)).toBe('/app/?notice=google')
  })

  it('signs in to an existing verified account', async () => {
    const existing = await verifiedAccount()
    const client = googleBrowser()
    const done = await client.get(await toDone(client, googleProfile({ email: existing.email })))
    expect(done.status).toBe(303)
    const landing = await client.get('/app/')
    expect((await selectOne(landing.html, '#signed-in-as')).text).toContain(existing.email)
  })

  it('never signs in to an unverified account, nor with an address Google did not verify', async () => {
    const squatter = await unverifiedAccount()
    const client = googleBrowser()
    await expectRefused(
      await client.get(await toDone(client, googleProfile({ email: squatter.email }))),
      /not verified yet/,
    )
    const unverified = googleProfile({ email_verified: false })
    await expectRefused(
      await client.get(await toDone(client, unverified)),
      /Google has not verified/,
    )
    expect(await findUserByEmail(createDb(env.DB), unverified.email)).toBeUndefined()
    expect((await client.get('/app/')).status, 'not signed in').toBe(303)
  })

  it('signs in by the Google account after its address changed at Google', async () => {
    const first = googleBrowser()
    const profile = googleProfile()
    expect((await first.get(await toDone(first, profile))).status).toBe(303)
    const later = googleBrowser()
    const moved = { ...profile, email: uniqueEmail('moved') }
    expect((await later.get(await toDone(later, moved))).status).toBe(303)
    const landing = await later.get('/app/')
    expect((await selectOne(landing.html, '#signed-in-as')).text).toContain(profile.email)
    expect(await findUserByEmail(createDb(env.DB), moved.email)).toBeUndefined()
  })

  it('refuses another Google account claiming the address of a linked account, saying why', async () => {
    const owner = googleProfile()
    const first = googleBrowser()
    expect((await first.get(await toDone(first, owner))).status).toBe(303)
    const client = googleBrowser()
    const impostor = googleProfile({ email: owner.email })
    await expectRefused(
      await client.get(await toDone(client, impostor)),
      /linked to a different Google account/,
    )
    expect((await client.get('/app/')).status, 'not signed in').toBe(303)
  })

  it('refuses a finished sign-in opened in another browser (login CSRF), which then still works where it began', async () => {
    const attacker = googleBrowser()
    const done = await toDone(attacker, googleProfile())
    const victim = googleBrowser()
    await victim.get('/app/signin')
    await expectRefused(await victim.get(done), /not started in this browser/)
    expect((await victim.get('/app/')).status, 'the victim is not signed in').toBe(303)
    // The check came before the code was spent.
    expect((await attacker.get(done)).status).toBe(303)
  })

  it('refuses a state whose page to go on to was changed, and a second use of the code', async () => {
    const client = googleBrowser()
    const done = await toDone(client, googleProfile())
    const url = new URL(done, 'https://api.test')
    const state = url.searchParams.get('state')!
    url.searchParams.set('state', `${state.split('~')[0]}~/app/elsewhere`)
    await expectRefused(await client.get(url.pathname + url.search), /not started in this browser/)
    expect((await client.get(done)).status).toBe(303)
    await expectRefused(await client.get(done), /already used/)
  })

  it("says so when Google's answer is a refusal", async () => {
    const client = googleBrowser()
    const started = await client.get('/app/google/start')
    const state = new URL(started.res.headers.get('Location')!).searchParams.get('state')!
    const callback = await client.get(
      `/auth/google/callback?state=${encodeURIComponent(state)}&error=access_denied`,
    )
    await expectRefused(await client.get(pathOf(callback)), /cancelled/)
  })

  it('answers a page, not a failure, to a bad query or when Google is not configured', async () => {
    const client = googleBrowser()
    for (const query of ['', '?state=', '?state=x&extra=1', '?code=a&state=' + 'x'.repeat(2000)]) {
      const page = await client.get(`/app/google/done${query}`)
      expect(page.status, query).toBe(400)
      expect(await select(page.html, 'h1')).toHaveLength(1)
    }
    const off = new WebClient()
    const start = await off.get('/app/google/start')
    expect(start.status).toBe(503)
    expect((await selectOne(start.html, '#message')).text).toMatch(/not configured/)
  })
})
