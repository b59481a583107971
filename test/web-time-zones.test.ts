// Time zones and contest types in the web app's words: a web sign-up keeps the browser's zone
// (checked, under its current IANA name, the default for anything else) while the API's keeps
// UTC; zones read as places; the home page names contest types as the settings page does. What a
// real browser's script does with them is in browser/time-zones.test.mjs.
import { beforeEach, describe, expect, it } from 'vitest'
import { currentZoneName, RENAMED_ZONES, ZONE_SCRIPT, zonePlace } from '../src/lib/time-zones.ts'
import { TYPE_GROUPS } from '../src/web/app/settings-contest-types.ts'
import { signupTimeZone } from '../src/web/app/signup-time-zone.ts'
import { appScript } from '../src/web/assets/hashed.ts'
import { CONTEST_TYPE_NAMES } from '../src/web/contest-type-names.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { select, selectOne } from './helpers/html.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, createUser, uniqueEmail, uniquePassword } from './helpers/users.ts'
import { WebClient } from './helpers/web.ts'

beforeEach(() => standIn.reset())

/** Signs up through /app/signup with `fields` added; the stored zone, read back over the API. */
async function webSignupZone(fields: Record<string, string | string[]>) {
  const email = uniqueEmail('zone')
  const password = uniquePassword()
  const answer = await new WebClient().submit('/app/signup', '/app/signup', {
    name: 'Srinivasa Ramanujan',
    email,
    password,
    ...fields,
  })
  expect(answer.status, answer.html.slice(0, 2000)).toBe(303)
  expect(WebClient.location(answer)).toBe('/app/verify?code=sent')
  const signin = await api('POST', '/auth/signin', { body: { email, password } })
  expect(signin.status).toBe(200)
  const profile = await api('GET', '/users/profile', { token: signin.body.accessToken })
  expect(profile.status).toBe(200)
  return profile.body.preferences.timezone as string
}

describe('time zone names', () => {
  it('renames legacy zones to their current names, which the runtime knows', () => {
    expect(currentZoneName('Asia/Calcutta')).toBe('Asia/Kolkata')
    expect(currentZoneName('Europe/Kiev')).toBe('Europe/Kyiv')
    expect(currentZoneName('Asia/Kolkata')).toBe('Asia/Kolkata')
    expect(currentZoneName('America/New_York')).toBe('America/New_York')
    expect(currentZoneName('constructor')).toBe('constructor')
    for (const renamed of Object.values(RENAMED_ZONES)) {
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: renamed }), renamed).not.toThrow()
    }
  })

  it('names a zone by its place, as people write it', () => {
    expect(zonePlace('America/New_York')).toBe('New York')
    expect(zonePlace('Asia/Kolkata')).toBe('Kolkata')
    expect(zonePlace('America/Argentina/Buenos_Aires')).toBe('Buenos Aires')
    expect(zonePlace('UTC')).toBe('UTC')
    // Etc/GMT+5 is five hours behind: "GMT+5" alone would say the opposite.
    expect(zonePlace('Etc/GMT+5')).toBe('Etc/GMT+5')
  })

  it('gives the page script the same table and functions', () => {
    expect(ZONE_SCRIPT).toContain(JSON.stringify(RENAMED_ZONES))
    expect(appScript.body).toContain(ZONE_SCRIPT)
    expect(appScript.body).toContain('zonePlace(currentZoneName(zone))')
  })
})

describe('the zone a web sign-up submits', () => {
  it('is kept as a real IANA zone, spelled and named as IANA does today', () => {
    expect(signupTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata')
    expect(signupTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata')
    expect(signupTimeZone('asia/calcutta')).toBe('Asia/Kolkata')
    expect(signupTimeZone(' America/New_York ')).toBe('America/New_York')
    expect(signupTimeZone('UTC')).toBe('UTC')
  })

  it('is dropped when it is not a zone, so the default stays', () => {
    for (const value of [
      undefined,
      '',
      'Mars/Olympus',
      '+05:30',
      'EST5EDT;drop',
      'A/'.repeat(40),
    ]) {
      expect(signupTimeZone(value), String(value)).toBeUndefined()
    }
  })

  it('becomes the account’s zone, under its current name', async () => {
    expect(await webSignupZone({ timeZone: 'Asia/Calcutta' })).toBe('Asia/Kolkata')
    expect(await webSignupZone({ timeZone: 'America/New_York' })).toBe('America/New_York')
  })

  it('never fails the sign-up: missing, empty, unknown or repeated, the account keeps UTC', async () => {
    expect(await webSignupZone({})).toBe('UTC')
    expect(await webSignupZone({ timeZone: '' })).toBe('UTC')
    expect(await webSignupZone({ timeZone: 'Mars/Olympus' })).toBe('UTC')
    expect(await webSignupZone({ timeZone: ['Asia/Kolkata', 'Europe/Berlin'] })).toBe('UTC')
  })

  it('has an empty hidden field on the page, which only the script fills', async () => {
    const page = await new WebClient().get('/app/signup')
    const field = await selectOne(page.html, '#signup-form input[name="timeZone"]')
    expect(field.attrs).toMatchObject({ type: 'hidden', value: '' })
    expect(field.attrs).toHaveProperty('data-browser-zone')
  })

  it('is not asked by the API, whose sign-up keeps the default', async () => {
    const user = await createUser()
    expect(user.user.preferences.timezone).toBe('UTC')
    const refused = await api('POST', '/auth/signup', {
      body: {
        email: uniqueEmail(),
        password: uniquePassword(),
        name: 'Api Person',
        timeZone: 'Asia/Kolkata',
      },
    })
    expect(refused.status).toBe(400)
  })
})

describe('contest types on the home page', () => {
  beforeEach(clearContests)

  it('are named as the settings page names them, in the list and the filter', async () => {
    await addContests([
      contest(5, { name: 'Cook-Off 12', platform: 'codechef', type: 'COOK_OFF' }),
      contest(6, { name: 'Weekly Contest 400', platform: 'leetcode', type: 'WEEKLY' }),
    ])
    const res = await new WebClient().fetch('/')
    expect(res.status).toBe(200)
    const html = await res.text()
    const metas = (await select(html, 'li.contest .meta')).map((m) => m.text)
    expect(metas).toEqual(['CodeChef · Cook-Off · 2 h', 'LeetCode · Weekly · 2 h'])
    expect(html).not.toContain('COOK_OFF ·')

    const settings = new Map(TYPE_GROUPS.flatMap((g) => g.types).map((t) => [t.value, t.label]))
    const options = await select(html, '#filters select[name="type"] option')
    for (const option of options.filter((o) => o.attrs.value)) {
      expect(option.text, option.attrs.value).toBe(settings.get(option.attrs.value))
      expect(option.text).toBe(CONTEST_TYPE_NAMES[option.attrs.value as 'CF'])
    }
  })
})
