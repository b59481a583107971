// /app/subscriptions: the followed and muted contests as a page, the page of one contest the home
// page's Follow and Mute buttons lead to, and the forms that follow, mute or go back to the
// default, through the same functions as the API (the API's list agrees with the page).
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import { setSubscription } from '../src/users/contest-subscriptions.ts'
import { addContests, contest } from './helpers/contests.ts'
import { select, selectOne } from './helpers/html.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'
import {
  expectNotFoundPage,
  expectPage,
  expectRefused,
  formErrors,
  noticeOf,
  signedInBrowser,
} from './helpers/web-app.ts'
import { WebClient, type WebPage } from './helpers/web.ts'
import { call } from './helpers/worker.ts'

let rounds: Awaited<ReturnType<typeof addContests>>

beforeAll(async () => {
  rounds = await addContests([
    contest(10, { name: 'Codeforces Round 3001', websiteUrl: 'https://codeforces.com/c/3001' }),
    contest(20, { name: 'Weekly Contest 500', platform: 'leetcode', type: 'WEEKLY' }),
    contest(30, { name: 'AtCoder Beginner Contest 500', platform: 'atcoder', type: 'ABC' }),
  ])
})

const apiChoices = async (user: TestUser) => {
  const res = await api('GET', '/users/contests/subscriptions', { token: user.accessToken })
  expect(res.status).toBe(200)
  return res.body.subscriptions.map((s: { contestId: string; mode: string }) => [
    s.contestId,
    s.mode,
  ])
}

async function listed(page: WebPage) {
  return (await select(page.html, '#subscriptions > li.subscription')).map((li) => [
    li.attrs['data-contest-id'],
    li.attrs['data-mode'],
  ])
}

async function signedIn() {
  const user = await createUser()
  return { user, browser: await signedInBrowser(user) }
}

describe('follow, mute and back to the default', () => {
  it('follows a contest from its page, lists it with its name, platform and start', async () => {
    const { user, browser } = await signedIn()
    const empty = await browser.get('/app/subscriptions')
    expectPage(empty, 200)
    expect((await selectOne(empty.html, '#no-subscriptions')).text).toMatch(/not followed/)
    expect((await selectOne(empty.html, 'a[aria-current="page"]')).text).toBe('Followed')

    const page = await browser.get(`/app/subscriptions/${rounds[0].id}?mode=follow`)
    expectPage(page, 200)
    expect((await selectOne(page.html, 'main h1')).text).toBe('Follow Codeforces Round 3001?')
    const forms = await select(page.html, `main form[action="/app/subscriptions/${rounds[0].id}"]`)
    expect(forms.map((f) => f.attrs.method)).toEqual(['post', 'post'])
    const modes = await select(page.html, 'main form input[name="mode"]')
    expect(modes.map((m) => m.attrs.value)).toEqual(['follow', 'mute'])

    const answer = await browser.post(
      `/app/subscriptions/${rounds[0].id}`,
      { mode: 'follow' },
      { csrf: page.csrf },
    )
    expect(answer.status, answer.html).toBe(303)
    expect(WebClient.location(answer)).toBe('/app/subscriptions?notice=follow')
    expect(await apiChoices(user)).toEqual([[rounds[0].id, 'follow']])

    const list = await browser.get(WebClient.location(answer))
    expect(await noticeOf(list)).toBe('Followed: you will be reminded of this contest.')
    expect(await listed(list)).toEqual([[rounds[0].id, 'follow']])
    const item = `li[data-contest-id="${rounds[0].id}"]`
    const link = await selectOne(list.html, `${item} h3 a`)
    expect(link).toMatchObject({
      text: 'Codeforces Round 3001',
      attrs: { href: 'https://codeforces.com/c/3001' },
    })
    expect((await selectOne(list.html, `${item} .meta`)).text).toBe(
      'Codeforces · Rounds (CF) · 2 h',
    )
    const time = await selectOne(list.html, `${item} time`)
    expect(time.attrs.datetime).toBe(new Date(rounds[0].startTime).toISOString())
    expect(time.text).toMatch(/UTC$/)
    expect((await selectOne(list.html, `${item} .status strong`)).text).toBe('Following')
  })

  it('switches to mute from the list, then unmutes back to the default', async () => {
    const { user, browser } = await signedIn()
    await setSubscription(createDb(env.DB), user.id, rounds[1].id, 'follow', Date.now())
    const list = await browser.get('/app/subscriptions')
    const item = `li[data-contest-id="${rounds[1].id}"]`
    const buttons = (await select(list.html, `${item} button`)).map((b) => b.text)
    expect(buttons).toEqual(['Unfollow', 'Mute instead'])

    const muted = await browser.post(
      `/app/subscriptions/${rounds[1].id}`,
      { mode: 'mute' },
      { csrf: list.csrf },
    )
    expect(WebClient.location(muted)).toBe('/app/subscriptions?notice=mute')
    expect(await apiChoices(user)).toEqual([[rounds[1].id, 'mute']])
    const after = await browser.get('/app/subscriptions')
    expect((await select(after.html, `${item} button`)).map((b) => b.text)).toEqual([
      'Unmute',
      'Follow instead',
    ])

    const cleared = await browser.post(
      `/app/subscriptions/${rounds[1].id}/clear`,
      {},
      { csrf: list.csrf },
    )
    expect(WebClient.location(cleared)).toBe('/app/subscriptions?notice=cleared')
    expect(await apiChoices(user)).toEqual([])
    // The page of the contest now says the settings decide, and offers both choices.
    const page = await browser.get(`/app/subscriptions/${rounds[1].id}`)
    expect((await selectOne(page.html, 'main h1')).text).toBe('Weekly Contest 500')
    expect((await selectOne(page.html, '#current-choice')).text).toMatch(/settings decide/)
  })

  it('answers an unknown or malformed contest with the 404 page, and a bad mode with 400', async () => {
    const { user, browser } = await signedIn()
    const page = await browser.get('/app/subscriptions')
    for (const id of ['0123456789abcdef01234567', 'nope']) {
      await expectNotFoundPage(await browser.get(`/app/subscriptions/${id}`), /No contest/)
      const posted = await browser.post(
        `/app/subscriptions/${id}`,
        { mode: 'follow' },
        { csrf: page.csrf },
      )
      await expectNotFoundPage(posted, /No contest/)
      const cleared = await browser.post(`/app/subscriptions/${id}/clear`, {}, { csrf: page.csrf })
      await expectNotFoundPage(cleared, /No contest/)
    }
    const bad = await browser.post(
      `/app/subscriptions/${rounds[0].id}`,
      { mode: 'remind' },
      { csrf: page.csrf },
    )
    expectPage(bad, 400)
    expect(await formErrors(bad)).toEqual([
      'Choice must be one of the following values: follow, mute',
    ])
    const extra = await browser.post(
      `/app/subscriptions/${rounds[0].id}`,
      { mode: 'follow', userId: user.id },
      { csrf: page.csrf },
    )
    expectPage(extra, 400)
    expect(await formErrors(extra)).toEqual(['This form has no field named userId.'])
    expectPage(await browser.get(`/app/subscriptions/${rounds[0].id}?mode=remind`), 400)
    expect(await apiChoices(user)).toEqual([])
  })

  it('refuses a form without its CSRF token (403) and changes nothing', async () => {
    const { user, browser } = await signedIn()
    await expectRefused(await browser.post(`/app/subscriptions/${rounds[0].id}`, { mode: 'mute' }))
    await setSubscription(createDb(env.DB), user.id, rounds[0].id, 'follow', Date.now())
    await expectRefused(await browser.post(`/app/subscriptions/${rounds[0].id}/clear`, {}))
    expect(await apiChoices(user)).toEqual([[rounds[0].id, 'follow']])
  })

  it('shows each user only their own choices', async () => {
    const me = await signedIn()
    const other = await signedIn()
    await setSubscription(createDb(env.DB), other.user.id, rounds[2].id, 'mute', Date.now())
    expect(await listed(await me.browser.get('/app/subscriptions'))).toEqual([])
    expect(await listed(await other.browser.get('/app/subscriptions'))).toEqual([
      [rounds[2].id, 'mute'],
    ])
  })

  it('pages the list 50 at a time, the latest choice first, as the API does', async () => {
    const { user, browser } = await signedIn()
    const many = await addContests(Array.from({ length: 51 }, (_, i) => contest(40 + i)))
    const db = createDb(env.DB)
    const at = Date.now()
    for (const [i, row] of many.entries()) {
      await setSubscription(db, user.id, row.id, i % 2 ? 'mute' : 'follow', at + i)
    }
    const first = await browser.get('/app/subscriptions')
    const second = await browser.get('/app/subscriptions?offset=50')
    expect((await listed(first)).length).toBe(50)
    expect(await listed(second)).toEqual([[many[0].id, 'follow']])
    expect((await listed(first))[0]).toEqual([many[50].id, 'follow'])
    expect((await selectOne(first.html, '.pager a[rel="next"]')).attrs.href).toBe(
      '/app/subscriptions?offset=50',
    )
    // A button pressed on the second page comes back to it.
    const answer = await browser.post(
      `/app/subscriptions/${many[0].id}/clear?offset=50`,
      {},
      { csrf: second.csrf },
    )
    expect(WebClient.location(answer)).toBe('/app/subscriptions?offset=50&notice=cleared')
    expectPage(await browser.get('/app/subscriptions?offset=-1'), 400)
  })
})

describe('the home page’s Follow and Mute buttons', () => {
  it('are GET forms without a token, so the cached page is the same for everyone', async () => {
    const res = await call('/')
    const html = await res.text()
    expect(res.headers.get('Cache-Control')).toMatch(/^public/)
    expect(res.headers.get('Set-Cookie')).toBeNull()
    expect(html).not.toContain('_csrf')
    const form = await selectOne(
      html,
      `li.contest form[action="/app/subscriptions/${rounds[0].id}"]`,
    )
    expect(form.attrs.method).toBe('get')
    const buttons = await select(html, `form[action="/app/subscriptions/${rounds[0].id}"] button`)
    expect(buttons.map((b) => [b.attrs.name, b.attrs.value, b.text])).toEqual([
      ['mode', 'follow', 'Follow Codeforces Round 3001'],
      ['mode', 'mute', 'Mute Codeforces Round 3001'],
    ])
    // A signed-in browser gets the very same page.
    const { browser } = await signedIn()
    const signedInHome = await browser.fetch('/')
    expect(await signedInHome.text()).toBe(html)
  })

  it('lead a signed-out browser through sign-in to the contest’s page, which posts the choice', async () => {
    const user = await createUser()
    const browser = new WebClient()
    const asked = `/app/subscriptions/${rounds[2].id}?mode=mute`
    const first = await browser.get(asked)
    expect(first.status).toBe(303)
    expect(WebClient.location(first)).toBe(`/app/signin?next=${encodeURIComponent(asked)}`)
    const signin = await browser.get(WebClient.location(first))
    const answer = await browser.post(
      WebClient.location(first),
      { email: user.email, password: user.password },
      { csrf: signin.csrf },
    )
    expect(WebClient.location(answer)).toBe(asked)
    const page = await browser.get(asked)
    expect((await selectOne(page.html, 'main h1')).text).toBe('Mute AtCoder Beginner Contest 500?')
    const done = await browser.post(
      `/app/subscriptions/${rounds[2].id}`,
      { mode: 'mute' },
      { csrf: page.csrf },
    )
    expect(done.status).toBe(303)
    expect(await apiChoices(user)).toEqual([[rounds[2].id, 'mute']])
  })
})
