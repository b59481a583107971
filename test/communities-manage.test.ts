// A claimed community is managed by its owner from the API (/communities) and the web app's
// Communities page: listed with its state, its filters changed under the bots' rules, released;
// another account's community is missing to everyone else.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { redeemClaimCode } from '../src/communities/claims.ts'
import { findDestination, markDead, subscribe } from '../src/communities/destinations.ts'
import { createDb } from '../src/db/client.ts'
import { select, selectOne } from './helpers/html.ts'
import { api, createUser, type TestUser } from './helpers/users.ts'
import {
  expectNotFoundPage,
  expectPage,
  formErrors,
  noticeOf,
  signedInBrowser,
} from './helpers/web-app.ts'

const db = () => createDb(env.DB)
let nextChat = -1_003_000_000_000

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

/** A Telegram group subscribed from its chat and claimed by `owner` with a code from the API. */
async function claimedGroup(owner: TestUser, title = 'CP Club') {
  const place = { channel: 'telegram' as const, chatId: String(--nextChat), title }
  await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
  const res = await api('POST', '/communities/claim-codes', { token: owner.accessToken })
  expect(res.status).toBe(201)
  expect(res.headers.get('Cache-Control')).toBe('no-store')
  expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000)
  expect(await redeemClaimCode(db(), res.body.code, place, Date.now())).toBe('claimed')
  return (await findDestination(db(), place))!
}

describe('/communities', () => {
  it('lists the account’s claimed communities with their filters and state, and only those', async () => {
    const owner = await createUser()
    const active = await claimedGroup(owner, 'Active club')
    const dead = await claimedGroup(owner, 'Gone club')
    await markDead(db(), dead.id, 'Telegram answered 403: Forbidden: bot was kicked', Date.now())
    await claimedGroup(await createUser(), 'Someone else’s')

    const res = await api('GET', '/communities', { token: owner.accessToken })
    expect(res.status).toBe(200)
    const byTitle = Object.fromEntries(
      res.body.communities.map((c: { title: string }) => [c.title, c]),
    )
    expect(Object.keys(byTitle).sort()).toEqual(['Active club', 'Gone club'])
    expect(byTitle['Active club']).toMatchObject({
      id: active.id,
      service: 'telegram',
      chatId: active.chatId,
      platforms: ['codeforces'],
      leadTimes: [60],
      contestTypes: [],
      minDuration: null,
      state: 'active',
      deadReason: null,
    })
    expect(byTitle['Gone club']).toMatchObject({
      state: 'dead',
      deadReason: 'Telegram answered 403: Forbidden: bot was kicked',
      deadAt: expect.stringMatching(/^\d{4}-/),
    })
    expect((await api('GET', '/communities')).status).toBe(401)
  })

  it('changes a claimed community’s filters under the bots’ rules, and no one else’s', async () => {
    const owner = await createUser()
    const d = await claimedGroup(owner)
    const patch = (body: unknown, id = d.id, user = owner) =>
      api('PATCH', `/communities/${id}`, { token: user.accessToken, body })

    const changed = await patch({
      platforms: ['atcoder', 'codeforces', 'atcoder'],
      leadTimes: [60, 1440],
      contestTypes: ['ABC'],
      excludeWords: ['kotlin'],
      minDuration: 90,
    })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({
      platforms: ['atcoder', 'codeforces'],
      leadTimes: [1440, 60],
      contestTypes: ['ABC'],
      includeWords: [],
      excludeWords: ['kotlin'],
      minDuration: 90,
    })
    // What was not sent stays.
    expect((await patch({ minDuration: null })).body).toMatchObject({
      leadTimes: [1440, 60],
      minDuration: null,
    })

    for (const [body, message] of [
      [{ leadTimes: [1] }, 'lead times must be at least 5 minutes'],
      [{ platforms: [] }, 'platforms must name at least one platform'],
      [{ platforms: ['nosuchjudge'] }, 'platforms must name known platforms'],
      [{ includeWords: Array(21).fill('w') }, 'includeWords takes at most 20 words'],
    ] as const) {
      const res = await patch(body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
      expect(JSON.stringify(res.body.message)).toContain(message)
    }
    expect((await patch({ ownerId: 'x' })).status).toBe(400)
    expect((await patch({}, 'not-an-id')).status).toBe(400)

    const stranger = await createUser()
    const refused = await patch({ leadTimes: [30] }, d.id, stranger)
    expect(refused.status).toBe(404)
    expect((await findDestination(db(), d))?.leadTimes).toEqual([1440, 60])
  })

  it('releases a claimed community, which keeps announcing from its chat', async () => {
    const owner = await createUser()
    const d = await claimedGroup(owner)
    const release = (user: TestUser) =>
      api('POST', `/communities/${d.id}/release`, { token: user.accessToken })
    expect((await release(await createUser())).status).toBe(404)
    expect((await release(owner)).status).toBe(204)
    expect((await release(owner)).status).toBe(404)
    expect(await findDestination(db(), d)).toMatchObject({ ownerId: null, deadAt: null })
    expect((await api('GET', '/communities', { token: owner.accessToken })).body).toEqual({
      communities: [],
    })
  })
})

describe('the Communities page', () => {
  it('changes what a community announces, keeping a refused form’s text, for its owner only', async () => {
    const owner = await createUser()
    const d = await claimedGroup(owner)
    const browser = await signedInBrowser(owner)
    const opened = await browser.get('/app/communities')
    expectPage(opened, 200)
    const leadInput = await selectOne(opened.html, `#community-${d.id}-leadTimes`)
    expect(leadInput.attrs.value).toBe('60')
    const fields = {
      platforms: ['codeforces', 'atcoder'],
      leadTimes: '1440, 60',
      contestTypes: 'div2',
      includeWords: '',
      excludeWords: 'kotlin, unrated',
      minDuration: '90',
    }

    const saved = await browser.post(`/app/communities/${d.id}`, fields, { csrf: opened.csrf })
    expect(saved.status).toBe(303)
    const after = await browser.get('/app/communities?done=saved')
    expect(await noticeOf(after)).toBe('Saved.')
    const [item] = await select(after.html, 'li.community')
    expect(item.text).toContain('When: 1 d, 1 h before each start.')
    expect(item.text).toContain('Never names with: kotlin, unrated.')
    expect(await findDestination(db(), d)).toMatchObject({
      platforms: ['codeforces', 'atcoder'],
      leadTimes: [1440, 60],
      contestTypes: ['div2'],
      excludeWords: ['kotlin', 'unrated'],
      minDuration: 90,
    })

    const refused = await browser.post(
      `/app/communities/${d.id}`,
      { ...fields, leadTimes: '1440, soon' },
      { csrf: opened.csrf },
    )
    expectPage(refused, 400)
    expect(await formErrors(refused)).toEqual([
      'Lead times must be whole minutes, such as 60, 1440',
    ])
    // The form comes back open with what was typed.
    expect((await selectOne(refused.html, `#community-${d.id}-leadTimes`)).attrs.value).toBe(
      '1440, soon',
    )
    const tooEarly = await browser.post(
      `/app/communities/${d.id}`,
      { ...fields, leadTimes: '2' },
      { csrf: opened.csrf },
    )
    expect(await formErrors(tooEarly)).toEqual(['lead times must be at least 5 minutes'])
    expect((await findDestination(db(), d))?.leadTimes).toEqual([1440, 60])

    const stranger = await signedInBrowser(await createUser())
    const theirs = await stranger.get('/app/communities')
    await expectNotFoundPage(
      await stranger.post(`/app/communities/${d.id}`, fields, { csrf: theirs.csrf }),
    )
    await expectNotFoundPage(
      await stranger.post(
        `/app/communities/${d.id}`,
        { ...fields, leadTimes: 'x' },
        { csrf: theirs.csrf },
      ),
    )
  })
})
