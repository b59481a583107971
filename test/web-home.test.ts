// The home page (GET /): the contract's markup, filters through a plain GET form, the feed link,
// friendly 400s, the CSP and hashed assets, and caching under the catalogue version.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PLATFORMS } from '../src/platforms/registry.ts'
import { syncDeps } from '../src/sync/deps.ts'
import { runSync } from '../src/sync/job.ts'
import { servePlatform } from './helpers/platforms.ts'
import { standIn } from './helpers/stand-in.ts'
import { appScript, appStyle } from '../src/web/assets/hashed.ts'
import { CONTENT_SECURITY_POLICY } from '../src/web/page-headers.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { select, selectOne } from './helpers/html.ts'
import { api, createAdmin, createUser } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

const DAY_HOURS = 24

beforeEach(clearContests)

async function page(path = '/') {
  const res = await call(path)
  expect(res.status, path).toBe(200)
  expect(res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8')
  return { res, html: await res.text() }
}

/** The names of the listed contests, in page order. */
async function listed(path: string) {
  const { html } = await page(path)
  return (await select(html, '#contests li.contest .contest-link')).map((a) => a.text)
}

/** Four platforms, a running and upcoming spread, and what the page must leave out. */
async function seedCatalogue() {
  return addContests([
    contest(-1, { name: 'Running Round', websiteUrl: 'https://codeforces.com/contest/1' }),
    contest(5, { name: 'Educational Round', description: 'rated for div 2' }),
    contest(10, { name: 'Weekly Contest 400', platform: 'leetcode', type: 'WEEKLY' }),
    contest(20, { name: 'Starters 150', platform: 'codechef', type: 'STARTERS' }),
    contest(30, { name: 'AtCoder Beginner Contest 380', platform: 'atcoder', type: 'ABC' }),
    contest(-30, { name: 'Finished Round' }),
    contest(20 * DAY_HOURS, { name: 'Too Far Round' }),
    contest(3, { name: 'Hidden Round', isActive: false }),
  ])
}

describe('GET /', () => {
  it('lists running and upcoming contests in the markup of the page contract', async () => {
    const [running, upcoming] = await seedCatalogue()
    const { html } = await page()

    await selectOne(html, 'html[lang="en"]')
    await selectOne(html, 'a.skip-link[href="#main"]')
    await selectOne(html, 'main#main')
    expect((await selectOne(html, 'h1')).text).toBe('Programming contests')
    const items = await select(html, '#contests > li.contest')
    expect(items.map((li) => li.attrs['data-platform'])).toEqual([
      'codeforces',
      'codeforces',
      'leetcode',
      'codechef',
      'atcoder',
    ])
    expect(await listed('/')).toEqual([
      'Running Round',
      'Educational Round',
      'Weekly Contest 400',
      'Starters 150',
      'AtCoder Beginner Contest 380',
    ])
    expect(items[0].attrs).toMatchObject({
      'data-start': new Date(running.startTime).toISOString(),
      'data-status': 'running',
    })
    expect(items[1].attrs['data-status']).toBe('upcoming')
    expect((await select(html, '.group-heading h2')).map((h) => h.text)).toEqual([
      'Running now',
      'Upcoming',
    ])

    const links = await select(html, 'li.contest a.contest-link')
    expect(links[0].attrs.href).toBe('https://codeforces.com/contest/1')
    // Without a stored link, the platform's list of contests.
    expect(links[1].attrs.href).toBe('https://codeforces.com/contests')
    const calendars = await select(html, 'li.contest a.add-to-calendar')
    expect(calendars[1].attrs.href).toBe(`/contests/${upcoming.id}/calendar.ics`)
    const times = await select(html, 'li.contest time.start')
    expect(times[1].attrs.datetime).toBe(new Date(upcoming.startTime).toISOString())
    expect(times[1].text).toMatch(/^\w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/)
    expect(await select(html, 'li.contest .countdown[data-start]')).toHaveLength(4)
    expect((await select(html, 'li.contest .meta'))[2].text).toBe('LeetCode · Weekly · 2 h')
  })

  it('tells which platforms may be out of date: a broken source, or no sync for 12 hours', async () => {
    await standIn.reset()
    await servePlatform('codeforces', 'upstream down', 503)
    await servePlatform('leetcode', undefined, 200, Date.now())
    await runSync(syncDeps(env), ['codeforces', 'leetcode'], Date.now())
    const { html } = await page('/?platform=leetcode')
    const items = await select(html, '#stale-platforms li')
    const named = items.map((li) => li.attrs['data-platform'])
    expect(named).toContain('codeforces')
    expect(named).not.toContain('leetcode')
    // Never synced at all: the other platforms with a source of their own.
    expect(named).toContain('atcoder')
    expect(items.find((li) => li.attrs['data-platform'] === 'codeforces')?.text).toContain(
      'its source is failing',
    )
  })

  it('has a GET form with a labelled control for every filter', async () => {
    const { html } = await page()
    const form = await selectOne(html, 'form#filters')
    expect(form.attrs).toMatchObject({ method: 'get', action: '/' })
    const boxes = await select(html, '#filters input[type="checkbox"][name="platform"]')
    expect(boxes.map((b) => b.attrs.value)).toEqual([...PLATFORMS])
    const options = await select(html, '#filters select[name="type"] option')
    expect(options[0].attrs.value).toBe('')
    expect(options.map((o) => o.attrs.value)).toContain('STARTERS')
    const search = await selectOne(html, '#filters input[name="q"]')
    expect(search.attrs.type).toBe('search')
    const selects = await select(html, '#filters select')
    expect(selects.map((s) => s.attrs.name)).toEqual(['type', 'minDuration', 'maxDuration'])
    const labelled = [...boxes, ...selects, search]
    for (const control of labelled) {
      const label = await selectOne(html, `label[for="${control.attrs.id}"]`)
      expect(label.text.trim(), control.attrs.id).not.toBe('')
    }
  })

  it('narrows the list by platform, type and search words, and keeps the choices in the form', async () => {
    await seedCatalogue()

    expect(await listed('/?platform=leetcode')).toEqual(['Weekly Contest 400'])
    expect(await listed('/?platform=atcoder&platform=codechef')).toEqual([
      'Starters 150',
      'AtCoder Beginner Contest 380',
    ])
    expect(await listed('/?type=ABC')).toEqual(['AtCoder Beginner Contest 380'])
    expect(await listed('/?type=')).toHaveLength(5)
    // The catalogue's search: words as prefixes, in names and descriptions.
    expect(await listed('/?q=educ')).toEqual(['Educational Round'])
    expect(await listed('/?q=rated+div')).toEqual(['Educational Round'])
    expect(await listed('/?q=round&platform=codeforces&type=CF')).toEqual([
      'Running Round',
      'Educational Round',
    ])

    const { html } = await page('/?platform=atcoder&type=ABC&q=beginner')
    const checked = await select(html, '#filters input[name="platform"][checked]')
    expect(checked.map((c) => c.attrs.value)).toEqual(['atcoder'])
    expect((await selectOne(html, '#type option[selected]')).attrs.value).toBe('ABC')
    expect((await selectOne(html, '#filters input[name="q"]')).attrs.value).toBe('beginner')
  })

  it('says so when nothing matches', async () => {
    await seedCatalogue()
    for (const path of ['/?q=nothing+like+this', '/?type=AGC', '/?q=%24%25']) {
      const { html } = await page(path)
      expect((await selectOne(html, 'p#no-contests')).text, path).toContain('No contests match')
      expect(await select(html, '#contests'), path).toEqual([])
    }
  })

  it('links the public feed with the same platform and type filters', async () => {
    await seedCatalogue()
    const hrefOf = async (path: string) =>
      (await selectOne((await page(path)).html, 'a#subscribe')).attrs.href

    expect(await hrefOf('/')).toBe('/contests/calendar.ics')
    const href = await hrefOf('/?platform=codechef&platform=atcoder&type=ABC&q=beginner')
    expect(href).toBe('/contests/calendar.ics?platform=codechef,atcoder&type=ABC')
    const feed = await call(href)
    expect(feed.status).toBe(200)
    expect(await feed.text()).toContain('SUMMARY:AtCoder Beginner Contest 380')
  })

  it('answers an invalid filter value with a 400 page and ignores keys it does not know', async () => {
    const cases: [string, string][] = [
      ['/?platform=nosuchjudge', `platform must be one of: ${PLATFORMS.join(', ')}`],
      ['/?type=DIV2', 'type must be one of:'],
      ['/?type=CF&type=ABC', 'type may be given once'],
      ['/?q=a&q=b', 'q may be given once'],
      [`/?q=${'x'.repeat(101)}`, 'q must be at most 100 characters'],
    ]
    for (const [path, message] of cases) {
      const res = await call(path)
      expect(res.status, path).toBe(400)
      expect(res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8')
      expect(res.headers.get('Cache-Control')).toBe('no-store')
      expect(res.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
      const html = await res.text()
      await selectOne(html, 'main#main')
      expect((await select(html, '.errors li')).map((li) => li.text).join('\n'), path).toContain(
        message,
      )
    }
    expect((await call('/?utm_source=mail&fbclid=x&platform=')).status).toBe(200)
  })
})

describe('what comes first: the next round, the folded filters, long challenges apart', () => {
  /** A 700-hour challenge running for days, a two-hour round running, rounds to come, a long one. */
  async function withLongChallenges() {
    return addContests([
      contest(-5 * DAY_HOURS, {
        name: 'Monthly Challenge',
        platform: 'code360',
        type: 'OTHER',
        endTime: Date.now() + 700 * 3_600_000 - 5 * DAY_HOURS * 3_600_000,
      }),
      contest(-1, { name: 'Running Round' }),
      contest(3, { name: 'Educational Round', endTime: Date.now() + 8 * 3_600_000 }),
      contest(6, { name: 'Weekly Contest 400', platform: 'leetcode', type: 'WEEKLY' }),
      contest(2, {
        name: 'Training Series',
        platform: 'luogu',
        type: 'OI',
        endTime: Date.now() + 14 * DAY_HOURS * 3_600_000,
      }),
    ])
  }

  it('lists contests longer than a day in a folded group of their own, rounds first', async () => {
    await withLongChallenges()
    const { html } = await page()
    expect(await listed('/')).toEqual(['Running Round', 'Educational Round', 'Weekly Contest 400'])
    const folded = await selectOne(html, 'details#long-challenges')
    expect(folded.attrs.open).toBeUndefined()
    expect((await selectOne(html, '#long-challenges summary h2')).text).toBe('Long challenges (2)')
    const long = await select(html, '#long-contests li.contest')
    expect(long.map((li) => li.attrs['data-status'])).toEqual(['running', 'upcoming'])
    expect((await select(html, '#long-contests .contest-link')).map((a) => a.text)).toEqual([
      'Monthly Challenge',
      'Training Series',
    ])
  })

  it('names the next round with its countdown and calendar link, never a long challenge', async () => {
    const [, , next] = await withLongChallenges()
    const { html } = await page()
    const box = await selectOne(html, 'section#next-up')
    expect(box.attrs['data-platform']).toBe('codeforces')
    expect((await selectOne(html, '#next-up .contest-link')).text).toBe('Educational Round')
    const countdown = await selectOne(html, '#next-up .countdown')
    expect(countdown.attrs['data-start']).toBe(new Date(next.startTime).toISOString())
    expect(countdown.text).toBe('starts in about 3 hours')
    expect((await selectOne(html, '#next-up a.add-to-calendar')).attrs.href).toBe(
      `/contests/${next.id}/calendar.ics`,
    )
    // The chosen judges' next round.
    const leetcode = (await page('/?platform=leetcode')).html
    expect((await selectOne(leetcode, '#next-up .contest-link')).text).toBe('Weekly Contest 400')
    // Nothing to come: no box.
    expect(await select((await page('/?platform=code360')).html, '#next-up')).toEqual([])
  })

  it('narrows by duration as the feeds do, and the feed link carries it', async () => {
    await withLongChallenges()
    expect(await listed('/?maxDuration=180')).toEqual(['Running Round', 'Weekly Contest 400'])
    expect(await listed('/?minDuration=240')).toEqual(['Educational Round'])
    const long = (await page('/?minDuration=1441')).html
    expect(await select(long, '#contests li.contest')).toEqual([])
    expect(await select(long, '#long-contests li.contest')).toHaveLength(2)
    const { html } = await page('/?platform=codeforces&minDuration=60&maxDuration=300')
    expect((await selectOne(html, 'a#subscribe')).attrs.href).toBe(
      '/contests/calendar.ics?platform=codeforces&minDuration=60&maxDuration=300',
    )
    expect((await selectOne(html, '#maxDuration option[selected]')).attrs.value).toBe('300')
    // A length the form does not offer is shown as chosen, not dropped.
    const odd = (await page('/?maxDuration=90')).html
    expect((await selectOne(odd, '#maxDuration option[selected]')).text).toBe('up to 1 h 30 min')
    for (const [path, message] of [
      ['/?maxDuration=0', 'maxDuration must be a whole number of minutes'],
      ['/?minDuration=2.5', 'minDuration must be a whole number of minutes'],
      ['/?minDuration=300&maxDuration=60', 'minDuration must not exceed maxDuration'],
      ['/?maxDuration=60&maxDuration=90', 'maxDuration may be given once'],
    ]) {
      const res = await call(path)
      expect(res.status, path).toBe(400)
      expect(await res.text(), path).toContain(message)
    }
  })

  it('folds the filters into one line that says what is chosen', async () => {
    const summaryOf = async (path: string) => {
      const { html } = await page(path)
      const panel = await selectOne(html, 'details#filters-panel')
      expect(panel.attrs.open, path).toBeUndefined()
      await selectOne(html, 'details#filters-panel > form#filters')
      return (await selectOne(html, '#filters-summary')).text
    }
    expect(await summaryOf('/')).toBe('All judges · any type')
    expect(
      await summaryOf('/?platform=codeforces&platform=atcoder&type=ABC&q=beginner&maxDuration=180'),
    ).toBe('Codeforces, AtCoder · Beginner (ABC) · ‘beginner’ · up to 3 h')
    expect(
      await summaryOf('/?platform=codeforces&platform=atcoder&platform=leetcode&platform=dmoj'),
    ).toBe('Codeforces, LeetCode and 2 more · any type')
    expect(await summaryOf('/?minDuration=60&maxDuration=1440')).toBe(
      'All judges · any type · 1 h to 1 day',
    )
  })

  it('shows the most followed judges first and folds the rest under "More judges"', async () => {
    await env.KV.delete('home:judge-order')
    const follow = async (platforms: string[]) => {
      const me = await createUser()
      const res = await api('PUT', '/users/profile', {
        token: me.accessToken,
        body: { preferences: { platforms } },
      })
      expect(res.status).toBe(200)
    }
    await follow(['yukicoder', 'atcoder'])
    await follow(['yukicoder'])
    const { html } = await page('/?platform=topcoder')
    const first = await select(html, '#filters > fieldset > .choices input[name="platform"]')
    expect(first.map((b) => b.attrs.value)).toEqual([
      'yukicoder',
      'atcoder',
      ...PLATFORMS.filter((p) => !['yukicoder', 'atcoder'].includes(p)).slice(0, 4),
    ])
    const more = await select(html, 'details.more-judges input[name="platform"]')
    expect(more).toHaveLength(PLATFORMS.length - 6)
    // A chosen judge among the rest opens the fold, so the choice is never hidden.
    expect((await selectOne(html, 'details.more-judges')).attrs.open).toBeDefined()
    expect((await selectOne((await page()).html, 'details.more-judges')).attrs.open).toBeUndefined()
  })
})

describe('the page’s security headers and assets', () => {
  it('sends the strict CSP and has no inline script or style', async () => {
    await addContests([contest(2, { name: '<script>alert(1)</script> "Round"' })])
    const { res, html } = await page()

    expect(res.headers.get('Content-Security-Policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
        "connect-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; " +
        "base-uri 'none'",
    )
    const scripts = await select(html, 'script')
    expect(scripts.map((s) => s.attrs.src)).toEqual([appScript.path])
    expect(scripts[0].text).toBe('')
    expect(await select(html, 'style')).toEqual([])
    expect(await select(html, '[style]')).toEqual([])
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/)
    expect(html).not.toMatch(/\son\w+=/)
    expect((await selectOne(html, 'link[rel="stylesheet"]')).attrs.href).toBe(appStyle.path)
    // The contest's name is text, never markup.
    expect(html).not.toContain('<script>alert')
    expect((await selectOne(html, 'li.contest .contest-link')).text).toBe(
      '<script>alert(1)</script> "Round"',
    )
  })

  it('serves the hashed script and stylesheet, immutable, with their content types', async () => {
    expect(appScript.path).toMatch(/^\/assets\/app\.[0-9a-f]{14}\.js$/)
    expect(appStyle.path).toMatch(/^\/assets\/app\.[0-9a-f]{14}\.css$/)
    for (const [asset, type] of [
      [appScript, 'text/javascript; charset=utf-8'],
      [appStyle, 'text/css; charset=utf-8'],
    ] as const) {
      const res = await call(asset.path)
      expect(res.status).toBe(200)
      expect(res.headers.get('Content-Type')).toBe(type)
      expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
      expect(await res.text()).toBe(asset.body)
    }
    expect((await call('/assets/app.00000000000000.js')).status).toBe(404)
  })

  it('keeps the script far under 50 KB compressed', async () => {
    const gzip = new Response(appScript.body).body!.pipeThrough(new CompressionStream('gzip'))
    const bytes = (await new Response(gzip).arrayBuffer()).byteLength
    expect(bytes).toBeLessThan(50 * 1024)
  })
})

describe('caching of the page', () => {
  let adminToken: string
  beforeAll(async () => {
    adminToken = (await createAdmin()).accessToken
  })

  it('answers If-None-Match with 304, and a catalogue write changes the ETag', async () => {
    const [row] = await addContests([contest(5, { name: 'Cached Round' })])
    const first = await call('/')
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=60')
    expect(first.headers.get('X-Cache')).toBe('MISS')
    const etag = first.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)

    const hit = await call('/')
    expect(hit.headers.get('X-Cache')).toBe('HIT')
    expect(hit.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
    const again = await call('/', { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)

    const patch = await api('PATCH', `/contests/${row.id}`, {
      token: adminToken,
      body: { name: 'Renamed Round' },
    })
    expect(patch.status).toBe(200)
    const changed = await call('/', { headers: { 'If-None-Match': etag! } })
    expect(changed.status).toBe(200)
    // A missing ETag would differ too: the new one must be there, in the same form.
    const next = changed.headers.get('ETag')
    expect(next).toMatch(/^"[0-9a-f]{32}"$/)
    expect(next).not.toBe(etag)
    expect(await listedIn(await changed.text())).toEqual(['Renamed Round'])
  })
})

async function listedIn(html: string) {
  return (await select(html, 'li.contest .contest-link')).map((a) => a.text)
}
