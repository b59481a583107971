// The account pages of the web app (/app/signup, verify, signin, forgot, reset): they work as plain
// forms, show each error next to its field (labelled, aria-describedby), answer bad input with a
// 400 page and never a 500, call the same account functions with the same limits as the API.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '../src/env.ts'
import { RULES } from '../src/http/rate-limit.ts'
import { CONTENT_SECURITY_POLICY } from '../src/web/page-headers.ts'
import { select, selectOne } from './helpers/html.ts'
import { standIn } from './helpers/stand-in.ts'
import {
  api,
  createUser,
  lastCode,
  mailCountTo,
  uniqueEmail,
  uniquePassword,
} from './helpers/users.ts'
import { setsCookie, WebClient, type WebPage } from './helpers/web.ts'

beforeEach(() => standIn.reset())

const PAGES = ['/app/signup', '/app/signin', '/app/verify', '/app/forgot', '/app/reset']

/** The field's input, its label and the message tied to it by aria-describedby. */
async function fieldOf(page: WebPage, name: string) {
  const input = await selectOne(page.html, `input[name="${name}"]`)
  const label = await selectOne(page.html, `label[for="${input.attrs.id}"]`)
  const described = (input.attrs['aria-describedby'] ?? '').split(' ').filter(Boolean)
  const messages = []
  for (const id of described) messages.push((await selectOne(page.html, `#${id}`)).text)
  return { input, label: label.text, messages, invalid: input.attrs['aria-invalid'] === 'true' }
}

async function expectFieldError(page: WebPage, name: string, pattern: RegExp) {
  const field = await fieldOf(page, name)
  expect(field.invalid, `${name} is marked invalid`).toBe(true)
  // The error is read first, then the hint.
  expect(field.messages[0], `${name}'s message`).toMatch(pattern)
  expect((await selectOne(page.html, `#field-${name}-error`)).text).toMatch(pattern)
}

async function formErrors(page: WebPage) {
  return (await select(page.html, '#form-errors p, #form-errors li')).map((e) => e.text)
}

function expectPage(page: WebPage, status: number) {
  expect(page.status, page.html).toBe(status)
  expect(page.res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8')
  expect(page.res.headers.get('Cache-Control')).toBe('no-store')
  expect(page.res.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
}

describe('the pages', () => {
  it('are server-rendered forms with a labelled field for every input, a token and no-store', async () => {
    for (const path of PAGES) {
      const client = new WebClient()
      const page = await client.get(path)
      expectPage(page, 200)
      await selectOne(page.html, 'main#main h1')
      const forms = await select(page.html, 'main form')
      expect(forms.length, path).toBeGreaterThan(0)
      for (const form of forms) {
        expect(form.attrs.method, path).toBe('post')
        expect(form.attrs.action, path).toMatch(/^\/app\//)
      }
      for (const input of await select(page.html, 'main input:not([type="hidden"])')) {
        const label = await select(page.html, `label[for="${input.attrs.id}"]`)
        expect(label.length, `${path}: a label for ${input.attrs.name}`).toBe(1)
      }
      expect(page.csrf, path).toBeTruthy()
    }
  })

  it('offer Sign in with Google only when Google is configured', async () => {
    const client = new WebClient()
    for (const path of ['/app/signin', '/app/signup']) {
      expect(await select((await client.get(path)).html, '#google-signin'), path).toEqual([])
    }
    const google = new WebClient({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' })
    for (const path of ['/app/signin', '/app/signup']) {
      const link = await selectOne((await google.get(path)).html, '#google-signin')
      expect(link.attrs.href).toBe('/app/google/start')
      expect(link.text).toBe('Sign in with Google')
    }
  })

  it('have one address for the home page: /app redirects to /app/', async () => {
    const page = await new WebClient().get('/app?notice=verified')
    expect(page.status).toBe(308)
    expect(WebClient.location(page)).toBe('/app/?notice=verified')
  })

  it('answer a failure below them as a page: a limiter outage 503, anything else a bare 500', async () => {
    const client = new WebClient()
    const { csrf } = await client.get('/app/signin')
    const user = await createUser()
    const brokenLimiter = {
      idFromName: () => ({}),
      get: () => ({
        hit: () => Promise.reject(new Error('limiter down')),
        reserve: () => Promise.reject(new Error('limiter down')),
      }),
    } as unknown as Env['RATE_LIMITER']
    const down = new WebClient({ RATE_LIMITER: brokenLimiter })
    down.cookies.set('__Host-csrf', client.cookies.get('__Host-csrf')!)
    const refused = await down.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf },
    )
    expectPage(refused, 503)
    expect((await selectOne(refused.html, '#message')).text).toBe('Service temporarily unavailable')

    const broken = {
      prepare: () => {
        throw new Error('D1 is down: SELECT password_hash FROM users')
      },
    } as unknown as D1Database
    const failing = new WebClient({ RATE_LIMIT_DISABLED: 'true', DB: broken })
    failing.cookies.set('__Host-csrf', client.cookies.get('__Host-csrf')!)
    const failed = await failing.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf },
    )
    expectPage(failed, 500)
    expect((await selectOne(failed.html, 'h1')).text).toBe('Something went wrong')
    expect(failed.html).not.toContain('D1 is down')
  })

  it('say nothing for a notice they do not know, even an inherited property name', async () => {
    const client = new WebClient()
    for (const query of ['notice=constructor', 'notice=__proto__', 'notice=toString']) {
      const page = await client.get(`/app/signin?${query}`)
      expectPage(page, 200)
      expect(await select(page.html, '#notice')).toEqual([])
    }
  })
})

describe('sign-up and verification', () => {
  it('signs up, signs the browser in, mails a code, and verifies the address with it', async () => {
    const client = new WebClient()
    const email = uniqueEmail('web')
    const answer = await client.submit('/app/signup', '/app/signup', {
      name: 'Ada Lovelace',
      email,
      password: uniquePassword(),
    })
    expect(answer.status, answer.html).toBe(303)
    expect(WebClient.location(answer)).toBe('/app/verify?code=sent')

    const verify = await client.get('/app/verify?code=sent')
    expectPage(verify, 200)
    expect((await selectOne(verify.html, '#notice')).text).toMatch(/emailed you a 6-digit code/)
    expect((await fieldOf(verify, 'email')).input.attrs.value).toBe(email)
    const landing = await client.get('/app/')
    expect((await selectOne(landing.html, '#verify-reminder')).text).toMatch(/not verified/)

    const verified = await client.post(
      '/app/verify',
      { email, code: await lastCode(email) },
      { csrf: verify.csrf },
    )
    expect(WebClient.location(verified)).toBe('/app/?notice=verified')
    const after = await client.get('/app/?notice=verified')
    expectPage(after, 200)
    expect((await selectOne(after.html, '#signed-in-as')).text).toContain('Ada Lovelace')
    expect(await select(after.html, '#verify-reminder')).toEqual([])
    // Verified: the verify page has nothing more to ask.
    expect(WebClient.location(await client.get('/app/verify'))).toBe('/app/')
  })

  it('shows each invalid field next to its input, keeps what was typed, never the password', async () => {
    const client = new WebClient()
    const password = 'short'
    const page = await client.submit('/app/signup', '/app/signup', {
      name: 'A',
      email: 'not-an-email',
      password,
    })
    expectPage(page, 400)
    await expectFieldError(page, 'name', /Name must be at least 2 characters/)
    await expectFieldError(page, 'email', /^Email must be an email/)
    await expectFieldError(page, 'password', /^Password must be at least 8 characters/)
    expect((await fieldOf(page, 'email')).input.attrs.value).toBe('not-an-email')
    expect((await fieldOf(page, 'password')).input.attrs.value).toBeUndefined()
    expect(page.html).not.toContain(`"${password}"`)
  })

  it('says an address is taken next to the email field (409)', async () => {
    const user = await createUser()
    const page = await new WebClient().submit('/app/signup', '/app/signup', {
      name: 'Someone Else',
      email: user.email,
      password: uniquePassword(),
    })
    expectPage(page, 409)
    await expectFieldError(page, 'email', /already exists/)
  })

  it('refuses a wrong code next to the code field, and a new code can be sent from the form', async () => {
    const client = new WebClient()
    const email = uniqueEmail('web')
    await client.submit('/app/signup', '/app/signup', {
      name: 'Grace',
      email,
      password: uniquePassword(),
    })
    const first = await lastCode(email)
    const page = await client.get('/app/verify')
    const wrong = first === '000000' ? '111111' : '000000'
    const refused = await client.post('/app/verify', { email, code: wrong }, { csrf: page.csrf })
    expectPage(refused, 400)
    await expectFieldError(refused, 'code', /wrong, used or expired/)

    const mails = await mailCountTo(email)
    const resent = await client.post(
      '/app/verify/resend',
      { email, code: '' },
      { csrf: refused.csrf },
    )
    expectPage(resent, 200)
    expect((await selectOne(resent.html, '#notice')).text).toMatch(/a new code has been sent/)
    // Mailed after the answer, as the API's resend is.
    await expect.poll(() => mailCountTo(email)).toBe(mails + 1)
    const fresh = await lastCode(email)
    const ok = await client.post('/app/verify', { email, code: fresh }, { csrf: resent.csrf })
    expect(ok.status, ok.html).toBe(303)
  })
})

describe('sign-in', () => {
  it('refuses a wrong password or an unknown address with one message for the form (401)', async () => {
    const user = await createUser()
    for (const fields of [
      { email: user.email, password: 'wrong-password' },
      { email: uniqueEmail('nobody'), password: user.password },
    ]) {
      const page = await new WebClient().submit('/app/signin', '/app/signin', fields)
      expectPage(page, 401)
      expect(await formErrors(page)).toEqual(['The email or password is not right.'])
      expect((await fieldOf(page, 'email')).input.attrs.value).toBe(fields.email)
      expect(setsCookie(page.res, '__Host-session')).toBe(false)
    }
  })

  it('allows 30 attempts per address in 15 minutes, as the API, then a 429 page', async () => {
    const client = new WebClient()
    const { csrf } = await client.get('/app/signin')
    // Different accounts, so the failure budget of one account is not what stops them.
    const attempt = async () => {
      const page = await client.post(
        '/app/signin',
        { email: uniqueEmail('many'), password: 'whatever' },
        { csrf },
      )
      expect(page.status).toBe(401)
    }
    // Each attempt costs a password check (PBKDF2), which took 30 of them past the 5 s timeout
    // on a loaded machine: the form makes the first two and the 30th, and the address's counter
    // (the one the API's sign-in counts on too) is told of the 27 in between.
    await attempt()
    await attempt()
    const { name, limits, windowMs } = RULES.signin
    const counter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`${name}:ip:${client.ip}`))
    for (let i = 3; i < 30; i++)
      expect((await counter.hit(limits.ip!, windowMs)).allowed).toBe(true)
    await attempt()
    const refused = await client.post(
      '/app/signin',
      { email: uniqueEmail('many'), password: 'whatever' },
      { csrf },
    )
    expectPage(refused, 429)
    expect(Number(refused.res.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await selectOne(refused.html, 'h1')).text).toBe('Too many attempts')
    // A page's script asking for JSON keeps the API's answer.
    const scripted = await client.fetch('/app/signin', {
      method: 'POST',
      body: new URLSearchParams({ email: uniqueEmail('many'), password: 'x' }).toString(),
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-CSRF-Token': csrf!,
        'Sec-Fetch-Site': 'same-origin',
      },
    })
    expect(scripted.status).toBe(429)
    expect(scripted.headers.get('Content-Type')).toMatch(/^application\/json/)
  })

  it('shares the failure budget with the API: 5 wrong passwords, then even the right one waits', async () => {
    const user = await createUser()
    const client = new WebClient()
    const { csrf } = await client.get('/app/signin')
    for (let i = 0; i < 5; i++) {
      const page = await client.post(
        '/app/signin',
        { email: user.email, password: `wrong-${i}` },
        { csrf },
      )
      expect(page.status).toBe(401)
    }
    const right = await client.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf },
    )
    expectPage(right, 429)
    // The API counts the same account from the same address.
    const viaApi = await api('POST', '/auth/signin', {
      body: { email: user.email, password: user.password },
      ip: client.ip,
    })
    expect(viaApi.status).toBe(429)
  })
})

describe('password reset', () => {
  it('mails a code, shows the reset form with the address, and sets the new password', async () => {
    const user = await createUser()
    const client = new WebClient()
    const sent = await client.submit('/app/forgot', '/app/forgot', { email: user.email })
    expectPage(sent, 200)
    expect((await selectOne(sent.html, 'h1')).text).toBe('Choose a new password')
    expect((await selectOne(sent.html, '#notice')).text).toMatch(/If an account exists/)
    expect((await fieldOf(sent, 'email')).input.attrs.value).toBe(user.email)

    const newPassword = uniquePassword()
    const code = await lastCode(user.email)
    const done = await client.post(
      '/app/reset',
      { email: user.email, code, newPassword },
      { csrf: sent.csrf },
    )
    expect(WebClient.location(done)).toBe('/app/signin?notice=password-reset')
    const signin = await client.get('/app/signin?notice=password-reset')
    expect((await selectOne(signin.html, '#notice')).text).toMatch(/password was changed/)
    const old = await client.post(
      '/app/signin',
      { email: user.email, password: user.password },
      { csrf: signin.csrf },
    )
    expect(old.status).toBe(401)
    const fresh = await client.post(
      '/app/signin',
      { email: user.email, password: newPassword },
      { csrf: signin.csrf },
    )
    expect(fresh.status).toBe(303)
  })

  it('answers the same for an unknown address, and sends nothing', async () => {
    const email = uniqueEmail('nobody')
    const page = await new WebClient().submit('/app/forgot', '/app/forgot', { email })
    expectPage(page, 200)
    expect((await selectOne(page.html, '#notice')).text).toMatch(/If an account exists/)
    expect(await mailCountTo(email)).toBe(0)
  })

  it('refuses a wrong code next to the code field, and a short password next to its field', async () => {
    const user = await createUser()
    const client = new WebClient()
    const page = await client.get('/app/reset')
    const wrong = await client.post(
      '/app/reset',
      { email: user.email, code: '123456', newPassword: uniquePassword() },
      { csrf: page.csrf },
    )
    expectPage(wrong, 400)
    await expectFieldError(wrong, 'code', /wrong, used or expired/)
    const short = await client.post(
      '/app/reset',
      { email: user.email, code: '123456', newPassword: 'short' },
      { csrf: page.csrf },
    )
    expectPage(short, 400)
    await expectFieldError(short, 'newPassword', /^New password must be at least 8/)
  })

  it('limits code emails to 5 an hour per address, as the API does', async () => {
    const user = await createUser()
    for (let i = 0; i < 5; i++) {
      const page = await new WebClient().submit('/app/forgot', '/app/forgot', { email: user.email })
      expect(page.status).toBe(200)
    }
    const refused = await new WebClient().submit('/app/forgot', '/app/forgot', {
      email: user.email,
    })
    expectPage(refused, 429)
  })

  it('says so on the page when email is not configured (503), the same for every address', async () => {
    const client = new WebClient({ RESEND_API_KEY: '' })
    const page = await client.submit('/app/forgot', '/app/forgot', { email: uniqueEmail() })
    expectPage(page, 503)
    expect(await formErrors(page)).toEqual(['Email delivery is not configured; no code was sent'])
  })
})

describe('bad input', () => {
  it('a field the form does not have, a repeated field or a file is a 400 page, never a 500', async () => {
    const user = await createUser()
    const client = new WebClient()
    const { csrf } = await client.get('/app/signin')
    const bodies: Record<string, string | string[]>[] = [
      { email: user.email, password: user.password, role: 'admin' },
      { email: [user.email, user.email], password: user.password },
      { email: user.email },
      {},
    ]
    for (const fields of bodies) {
      const page = await client.post('/app/signin', fields, { csrf })
      expectPage(page, 400)
      expect(setsCookie(page.res, '__Host-session')).toBe(false)
    }
    const unknown = await client.post(
      '/app/signin',
      { email: user.email, password: user.password, role: 'admin' },
      { csrf },
    )
    expect(await formErrors(unknown)).toEqual(['This form has no field named role.'])

    const form = new FormData()
    form.append('_csrf', csrf!)
    form.append('email', new File(['x'], 'x.txt'))
    form.append('password', user.password)
    const file = await client.fetch('/app/signin', {
      method: 'POST',
      body: form,
      headers: { Origin: 'https://api.test', 'Sec-Fetch-Site': 'same-origin' },
    })
    expect(file.status).toBe(400)
  })

  it('a body that is no form at all is refused, not failed on', async () => {
    const client = new WebClient()
    const { csrf } = await client.get('/app/signin')
    const headers = { Origin: 'https://api.test', 'Sec-Fetch-Site': 'same-origin' }
    const cases: [string, string, number][] = [
      // No form field can carry the token: refused before anything reads the body.
      ['application/json', '{"email":"a@b.c"}', 403],
      ['multipart/form-data; boundary=nope', '--broken', 403],
      ['application/x-www-form-urlencoded', '%%%&&&==', 403],
    ]
    for (const [type, body, status] of cases) {
      const res = await client.fetch('/app/signin', {
        method: 'POST',
        body,
        headers: { ...headers, 'Content-Type': type },
      })
      expect(res.status, type).toBe(status)
      expect(res.headers.get('Content-Type')).toMatch(/^text\/html/)
    }
    // With the token in the header, the unreadable body reaches the form: a 400 page.
    const res = await client.fetch('/app/signin', {
      method: 'POST',
      body: '{"email":"a@b.c"}',
      headers: { ...headers, 'Content-Type': 'application/json', 'X-CSRF-Token': csrf! },
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('The form could not be read')
  })

  it('an address with more than the limit of characters is a 400, with its message', async () => {
    // An account that holds the over-long address (planted in SQL; no form makes one), so a
    // request that got past the form would issue and mail it a reset code.
    const email = `${'a'.repeat(260)}@example.test`
    const owner = await createUser()
    await env.DB.prepare('UPDATE users SET email = ?1 WHERE id = ?2').bind(email, owner.id).run()
    const page = await new WebClient().submit('/app/forgot', '/app/forgot', { email })
    expectPage(page, 400)
    await expectFieldError(page, 'email', /at most 254 characters/)
    const { results } = await env.DB.prepare('SELECT purpose FROM email_codes WHERE user_id = ?')
      .bind(owner.id)
      .all<{ purpose: string }>()
    expect(
      results.map((r) => r.purpose),
      'no reset code was issued',
    ).not.toContain('reset_password')
    expect(await mailCountTo(email), 'nothing was mailed').toBe(0)
  })
})
