// The web app's Handles page: link an own handle, see the token and where to place it, check the
// proof against the judge (Codeforces' user.info at the stand-in, in its real format), or ask for a
// challenge and prove by a compilation error (user.status, in its real format), remove it;
// and a proven handle's rating chart drawn from the judge's history (user.rating), with its table.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import kestrelRating from '../src/platforms/codeforces/fixtures/results/user-rating-kestrel.json'
import { CHALLENGE_PROBLEMS } from '../src/platforms/codeforces/submission-proof.ts'
import { resultsJudges } from '../src/results/judges.ts'
import { select, selectOne } from './helpers/html.ts'
import { standIn } from './helpers/stand-in.ts'
import { createUser } from './helpers/users.ts'
import {
  expectNotFoundPage,
  expectPage,
  formErrors,
  noticeOf,
  signedInBrowser,
} from './helpers/web-app.ts'
import { WebClient } from './helpers/web.ts'

const profile = (handle: string, firstName: string) => ({
  status: 200,
  body: { status: 'OK', result: [{ handle, firstName, rating: 1623, rank: 'expert' }] },
})

async function signedIn() {
  const user = await createUser()
  return signedInBrowser(user)
}

/** Links `handle` on Codeforces through the page's form; answers the page it lands on. */
async function link(browser: WebClient, handle: string) {
  const done = await browser.submit('/app/handles', '/app/handles', {
    platform: 'codeforces',
    handle,
  })
  expect(done.status, done.html).toBe(303)
  expect(WebClient.location(done)).toBe('/app/handles?done=linked')
  return browser.get('/app/handles?done=linked')
}

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM judge_handles').run()
  await env.KV.delete('results:history:codeforces:kestrel_09')
  await standIn.reset()
})

describe('the Handles page', () => {
  it('links a handle and says which token to place where, until when', async () => {
    const browser = await signedIn()
    const empty = await browser.get('/app/handles')
    expectPage(empty, 200)
    expect((await selectOne(empty.html, '#no-handles')).text).toBe('No handle linked yet.')
    expect((await selectOne(empty.html, 'a[aria-current="page"]')).text).toBe('Handles')
    const options = await select(empty.html, '#field-platform option')
    // Every judge whose descriptor declares results, and no other.
    expect(options.map((o) => o.attrs.value)).toEqual(resultsJudges().map((j) => j.module.id))
    expect(options.map((o) => o.attrs.value)).toContain('atcoder')
    expect(options.map((o) => o.attrs.value)).not.toContain('dmoj')

    const page = await link(browser, 'kestrel_09')
    expect(await noticeOf(page)).toMatch(/place the token/)
    const item = await selectOne(page.html, '#handles li.handle')
    expect(item.attrs['data-state']).toBe('unproven')
    const token = (await selectOne(page.html, '#handles code.token')).text
    expect(token).toMatch(/^cas-[a-z2-7]{10}$/)
    expect((await selectOne(page.html, '#handles .proof .status')).text).toContain('First name')
  })

  it('refuses a handle the judges cannot hold and a judge without results, on the page', async () => {
    const browser = await signedIn()
    const bad = await browser.submit('/app/handles', '/app/handles', {
      platform: 'codeforces',
      handle: 'a b/c',
    })
    expectPage(bad, 400)
    expect((await selectOne(bad.html, '#field-handle-error')).text).toMatch(/^Handle must hold/)
    const other = await browser.submit('/app/handles', '/app/handles', {
      platform: 'dmoj',
      handle: 'kestrel',
    })
    expectPage(other, 400)
    expect(other.html).toContain('dmoj has no results the service reads')
  })

  it('proves the handle once the token is in the profile, and says why not before', async () => {
    const browser = await signedIn()
    const page = await link(browser, 'kestrel_09')
    const id = (await selectOne(page.html, '#handles li.handle')).attrs['data-handle-id']!
    const token = (await selectOne(page.html, '#handles code.token')).text

    await standIn.script({
      pathPrefix: '/codeforces-api/user.info',
      responses: [profile('Kestrel_09', 'Anna'), profile('Kestrel_09', `Anna ${token}`)],
    })
    const opened = await browser.get('/app/handles')
    const early = await browser.post(`/app/handles/${id}/verify`, {}, { csrf: opened.csrf })
    expectPage(early, 422)
    expect((await formErrors(early)).join(' ')).toContain(`The token ${token} is not in`)

    const proven = await browser.post(`/app/handles/${id}/verify`, {}, { csrf: opened.csrf })
    expect(proven.status, proven.html).toBe(303)
    const after = await browser.get('/app/handles?done=proven')
    const item = await selectOne(after.html, '#handles li.handle')
    expect(item.attrs['data-state']).toBe('proven')
    expect((await selectOne(after.html, '#handles h3')).text).toBe('Codeforces: Kestrel_09')
    expect(await select(after.html, '#handles code.token')).toEqual([])
  })

  it('proves a Codeforces handle by a compilation error to the problem the page names', async () => {
    const browser = await signedIn()
    const page = await link(browser, 'Kestrel_09')
    const id = (await selectOne(page.html, '#handles li.handle')).attrs['data-handle-id']!
    // Before a challenge: one button that asks for it, labelled with the handle.
    const offer = await selectOne(page.html, '#handles section.challenge')
    expect(offer.attrs['data-open']).toBe('false')
    expect(offer.text).toContain('Prove by a compilation error of Kestrel_09')

    const asked = await browser.post(`/app/handles/${id}/challenge`, {}, { csrf: page.csrf })
    expect(asked.status, asked.html).toBe(303)
    expect(WebClient.location(asked)).toBe('/app/handles?done=challenged')
    const open = await browser.get('/app/handles?done=challenged')
    expect(await noticeOf(open)).toMatch(/compilation error/)
    const section = await selectOne(open.html, '#handles section.challenge')
    expect(section.attrs['data-open']).toBe('true')
    expect(section.attrs['aria-labelledby']).toBe(`handle-${id}-challenge`)
    const problemLink = await selectOne(open.html, '#handles a.challenge-problem')
    const problem = CHALLENGE_PROBLEMS.find((p) => p.url === problemLink.attrs.href)!
    expect(problemLink.text).toBe(`${problem.contestId}${problem.index} (${problem.name})`)
    const deadline = await selectOne(open.html, '#handles time.deadline')
    const expiresAt = Date.parse(deadline.attrs.datetime!)
    expect(expiresAt - Date.now()).toBeGreaterThan(4 * 60_000)
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000)
    // The token is still shown beside it: either proof will do.
    await selectOne(open.html, '#handles code.token')

    const submitted = (verdict: string) => ({
      status: 200,
      body: {
        status: 'OK',
        result: [
          {
            id: 351204877,
            contestId: problem.contestId,
            creationTimeSeconds: Math.floor(Date.now() / 1000),
            relativeTimeSeconds: 2147483647,
            problem: { contestId: problem.contestId, index: problem.index, name: problem.name },
            author: {
              contestId: problem.contestId,
              members: [{ handle: 'Kestrel_09' }],
              participantType: 'PRACTICE',
              ghost: false,
            },
            programmingLanguage: 'C++17 (GCC 7-32)',
            verdict,
            testset: 'TESTS',
            passedTestCount: 0,
            timeConsumedMillis: 0,
            memoryConsumedBytes: 0,
          },
        ],
      },
    })
    await standIn.script({
      pathPrefix: '/codeforces-api/user.status',
      responses: [submitted('WRONG_ANSWER'), submitted('COMPILATION_ERROR')],
    })
    const check = { method: 'submission' }
    const early = await browser.post(`/app/handles/${id}/verify`, check, { csrf: open.csrf })
    expectPage(early, 422)
    expect((await formErrors(early)).join(' ')).toContain('lists no compilation error')

    const proven = await browser.post(`/app/handles/${id}/verify`, check, { csrf: open.csrf })
    expect(proven.status, proven.html).toBe(303)
    const after = await browser.get('/app/handles?done=proven')
    expect((await selectOne(after.html, '#handles li.handle')).attrs['data-state']).toBe('proven')
    expect(await select(after.html, '#handles section.challenge')).toEqual([])
  })

  it('offers no submission proof on a judge without one, and refuses it there', async () => {
    const browser = await signedIn()
    const done = await browser.submit('/app/handles', '/app/handles', {
      platform: 'atcoder',
      handle: 'Sakura_K',
    })
    expect(done.status).toBe(303)
    const page = await browser.get('/app/handles')
    const id = (await selectOne(page.html, '#handles li.handle')).attrs['data-handle-id']!
    expect(await select(page.html, '#handles section.challenge')).toEqual([])
    const refused = await browser.post(`/app/handles/${id}/challenge`, {}, { csrf: page.csrf })
    expectPage(refused, 422)
    expect((await formErrors(refused)).join(' ')).toContain(
      'AtCoder offers no proof by a submission',
    )
  })

  it('draws a proven handle’s rating chart from the judge’s history, with its table', async () => {
    const browser = await signedIn()
    const page = await link(browser, 'kestrel_09')
    const id = (await selectOne(page.html, '#handles li.handle')).attrs['data-handle-id']!
    const token = (await selectOne(page.html, '#handles code.token')).text
    await standIn.script({
      pathPrefix: '/codeforces-api/user.info',
      responses: [profile('kestrel_09', token)],
    })
    await standIn.script({
      pathPrefix: '/codeforces-api/user.rating',
      responses: [{ status: 200, body: kestrelRating }],
    })
    const opened = await browser.get('/app/handles')
    expect(
      (await browser.post(`/app/handles/${id}/verify`, {}, { csrf: opened.csrf })).status,
    ).toBe(303)

    const chart = await browser.get(`/app/handles/${id}`)
    expectPage(chart, 200)
    await selectOne(chart.html, 'figure.rating-chart svg[role="img"]')
    const rows = await select(chart.html, 'table.rating-table tbody tr')
    expect(rows).toHaveLength(kestrelRating.result.length)
    expect(await select(chart.html, 'circle.rating-point')).toHaveLength(
      kestrelRating.result.length,
    )
    const last = kestrelRating.result.at(-1)!
    expect((await selectOne(chart.html, 'p.lead')).text).toContain(`Rating ${last.newRating}`)
  })

  it('answers another account’s handle, and a removed one, with the not-found page', async () => {
    const owner = await signedIn()
    const page = await link(owner, 'kestrel_09')
    const id = (await selectOne(page.html, '#handles li.handle')).attrs['data-handle-id']!
    const stranger = await signedIn()
    await expectNotFoundPage(await stranger.get(`/app/handles/${id}`))
    const theirs = await stranger.get('/app/handles')
    await expectNotFoundPage(
      await stranger.post(`/app/handles/${id}/remove`, {}, { csrf: theirs.csrf }),
    )

    const removed = await owner.post(`/app/handles/${id}/remove`, {}, { csrf: page.csrf })
    expect(removed.status).toBe(303)
    expect((await selectOne((await owner.get('/app/handles')).html, '#no-handles')).text).toBe(
      'No handle linked yet.',
    )
  })
})
