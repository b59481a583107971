// `npm run bench:abuse [-- --runtime workers|deno|all]`: sends the largest accepted value of every
// parameter of every public route (and the worst 1,000-word search of the security review) to the
// service under `wrangler dev` and on the Deno entry, each with a 20,000-contest catalogue, and
// writes the slowest answer per route and runtime into docs/security.md ("Bounded input").
import { createECDH, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { cpus, loadavg } from 'node:os'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { freePort, startDenoServer, startDevServer } from './lib/dev-server.mjs'
import {
  denoVersion,
  seedDenoState,
  seedWorkersState,
  writeCatalogueSql,
} from './lib/synthetic-contests.mjs'

const USAGE = `Usage: npm run bench:abuse [-- --runtime workers|deno|all] [--no-write]

  --runtime   the runtimes to measure (BENCH_RUNTIME; default all: workers, then deno)
  --no-write  print the figures only, leave docs/security.md alone (BENCH_WRITE=0)

Also BENCH_CONTESTS (20000), BENCH_ROUNDS per case (5), BENCH_PORT (a free port), and
BENCH_ONLY, a regular expression: only the routes it matches (then nothing is written).`

const CONTESTS = Number(process.env.BENCH_CONTESTS ?? 20_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined
const DOC = 'docs/security.md'
const SECTION = 'abuse'
// The general limit and the failure budgets would answer most of these with 429 and hide what
// the routes themselves cost; an attacker with many addresses meets none of them.
const SETTINGS = {
  RATE_LIMIT_DISABLED: 'true',
  JWT_SECRET: randomBytes(36).toString('base64url'),
  DEV_OUTBOX: 'false',
  // Set, so the signed webhooks run their checks rather than answering 503 at once.
  RESEND_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
  TELEGRAM_WEBHOOK_SECRET: randomBytes(24).toString('base64url'),
  // Google's sign-in on, so its routes do their work; every Google address is a closed port, and
  // no case gets as far as calling one (each state and code is unknown).
  GOOGLE_CLIENT_ID: 'bench-client.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'bench-secret',
  GOOGLE_AUTH_URL: 'http://127.0.0.1:9/auth',
  GOOGLE_TOKEN_URL: 'http://127.0.0.1:9/token',
  GOOGLE_JWKS_URL: 'http://127.0.0.1:9/jwks',
}
/** What every route reads before it: 64 KiB (src/http/body-limit.ts). */
const BODY_LIMIT = 64 * 1024
/**
 * What the doc promises a search costs, in milliseconds: the median of the costliest accepted
 * search's answers. The slowest single answer is reported too, but on a shared machine it holds
 * the scheduler's delays as well (the health check's own slowest shows how much).
 */
const SEARCH_BUDGET_MS = 100
const SEARCH = 'GET /contests/search'

const RUNTIMES = {
  workers: {
    label: 'Workers',
    state: '.wrangler/bench-abuse-state',
    describe: () => `\`wrangler dev\` (local workerd and D1)`,
    seed: seedWorkersState,
    start(state, port, vars) {
      // Read instead of .dev.vars, so a developer's own settings cannot change the figures.
      const envFile = join(state, 'empty.env')
      writeFileSync(envFile, '')
      return startDevServer({ port, persistTo: state, vars, envFile })
    },
  },
  deno: {
    label: 'Deno',
    state: '.wrangler/bench-abuse-deno-state',
    describe: () => `deno/main.ts on Deno ${denoVersion()} (node:sqlite as D1)`,
    seed: seedDenoState,
    start: (state, port, vars) =>
      startDenoServer({ port, state, vars, manualCrons: true, output: 'ignore' }),
  },
}

/** The synthetic catalogue as SQL inserts; returns its path and the ids of a few contests. */
function seedFile(now) {
  const path = '.wrangler/bench-abuse-seed.sql'
  return { path, ids: writeCatalogueSql(path, CONTESTS, now, 50) }
}

// ---- the largest accepted values -------------------------------------------------------------

/** The schema of a named component of the OpenAPI document, or of a $ref to one. */
const component = (doc, nameOrRef) =>
  doc.components.schemas[String(nameOrRef).replace('#/components/schemas/', '')]

/** A field's maxLength in the document; `fallback` (and a warning) when it states none. */
function maxLength(doc, schema, field, fallback) {
  const found = component(doc, schema)?.properties?.[field]?.maxLength
  if (found === undefined) console.warn(`! ${schema}.${field} states no maxLength`)
  return found ?? fallback
}

/** A parameter's maxLength in the document. */
function paramMax(doc, path, method, name, fallback) {
  const params = doc.paths[path]?.[method]?.parameters ?? []
  const found = params.find((p) => p.name === name)?.schema?.maxLength
  if (found === undefined)
    console.warn(`! ${method.toUpperCase()} ${path} ${name} states no maxLength`)
  return found ?? fallback
}

/** An address of exactly `length` characters that email checks accept (labels of 63 at most). */
function longEmail(length, tag) {
  const local = `${tag}.${'a'.repeat(64)}`.slice(0, 64)
  let domain = ''
  let rest = length - local.length - 1 - '.test'.length
  while (rest > 0) {
    const label = Math.min(63, rest - (domain ? 1 : 0))
    if (label <= 0) break
    domain += `${domain ? '.' : ''}${'d'.repeat(label)}`
    rest = length - local.length - 1 - '.test'.length - domain.length
  }
  const email = `${local}@${domain}.test`
  return email.length === length ? email : `${'a'.repeat(length - email.length)}${email}`
}

const text = (length, seed = 'x') => seed.repeat(Math.ceil(length / seed.length)).slice(0, length)

/** The letters of `n` in base 26 (a, b, ..., z, ba, ...): distinct words for distinct numbers. */
const letters = (n) =>
  [...n.toString(26)].map((d) => 'abcdefghijklmnopqrstuvwxyz'[parseInt(d, 26)]).join('')

/** Distinct words of six letters that fill `length` characters with single spaces. */
function distinctWords(length) {
  const words = []
  for (let i = 0; (words.length + 1) * 7 - 1 <= length; i++) words.push(letters(i).padStart(6, 'w'))
  return words.join(' ')
}

/** A uncompressed P-256 public key and a 16-byte secret: the keys of a browser's push endpoint. */
function pushKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  }
}

/** A JSON body whose `field` string fills what `rest` leaves of the body limit. */
function fillBody(rest, field) {
  const base = JSON.stringify({ ...rest, [field]: '' })
  return JSON.stringify({ ...rest, [field]: text(BODY_LIMIT - base.length - 16, 'n') })
}

/**
 * Every public route with the largest values it accepts (and a few it must refuse). A case is
 * `{ route, input, request(round) }`, where request gives `{ path, method?, headers?, body? }`.
 * `round` makes each request of a cached route a cache miss (the cache key holds the query).
 */
function cases({ doc, ids, csrf, appUrl }) {
  const all = []
  const add = (route, input, request) => all.push({ route, input, request })
  // Only the catalogue's reads and the home page are cached; other routes may refuse a stray key.
  const get = (route, input, path, bust = /^\/(contests|\?|$)/.test(path)) =>
    add(route, input, (n) => ({
      path: bust ? `${path}${path.includes('?') ? '&' : '?'}_=${n}` : path,
    }))
  const json = (route, input, path, body, headers = {}) =>
    add(route, input, () => ({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...headers },
      body:
        typeof body === 'function'
          ? body()
          : typeof body === 'string'
            ? body
            : JSON.stringify(body),
    }))
  const q = (s) => encodeURIComponent(s)

  // The catalogue reads.
  const searchMax = paramMax(doc, '/contests/search', 'get', 'q', 100)
  const repeated = (words) => Array.from({ length: words }, () => 'a').join(' ')
  // The costliest searches the bound admits, measured against many others on the synthetic
  // catalogue: words and short prefixes that each match half of it, all in the same rows (words
  // that begin another are dropped, so the first holds 3 terms, as the second does).
  const commonPrefixes = 'contest with problems c w p con wi pr co'
  const searches = [
    ['q: 1,000 words "a a a …" (the finding; refused)', repeated(1_000)],
    ['q: 7,000 words "a a a …" (14 KB URL; refused)', repeated(7_000)],
    [`q: "a a a …" at the bound (${searchMax - 1} characters)`, repeated(searchMax / 2)],
    [`q: ${searchMax} characters of distinct words`, distinctWords(searchMax)],
    ['q: 10 prefixes of words in half the rows', commonPrefixes],
    ['q: 3 words in half the rows', 'contest with problems'],
    ['q: 3 one-letter prefixes of words in half the rows', 'c w p'],
    ['q: 3 words in a quarter of the rows', 'codeforces round div'],
    [`q: ${searchMax + 1} characters (refused)`, text(searchMax + 1, 'ab ')],
  ]
  // Refusals get a row of their own, so the table shows the slowest answered search as well.
  for (const [input, words] of searches) {
    const route = input.endsWith('refused)') ? `${SEARCH}, refused` : SEARCH
    get(route, input, `/contests/search?q=${q(words)}`)
  }
  get('GET /contests/health', 'none', '/contests/health', false)
  for (const list of ['upcoming', 'running', 'finished']) {
    get(`GET /contests/${list}`, 'platform=codeforces', `/contests/${list}?platform=codeforces`)
  }
  get('GET /contests/stats', 'none', '/contests/stats')
  get('GET /contests/stats/{platform}', 'codeforces', '/contests/stats/codeforces')
  for (const [input, query] of [
    ['limit=100, phase=FINISHED', 'limit=100&phase=FINISHED'],
    ['limit=100, every filter, sparse', 'limit=100&phase=FINISHED&type=IOI&difficulty=EXPERT'],
  ]) {
    get('GET /contests/platform/{platform}', input, `/contests/platform/codeforces?${query}`)
  }
  get('GET /contests/difficulty/{level}', 'BEGINNER', '/contests/difficulty/BEGINNER')
  get('GET /contests/type/{type}', 'CF', '/contests/type/CF')
  const offsetMax = doc.paths['/contests'].get.parameters.find((p) => p.name === 'offset').schema
    .maximum
  const dateMax = paramMax(doc, '/contests', 'get', 'startDate', 40)
  const date = (year) => {
    const head = `${year}-01-01T00:00:00.`
    return `${head}${'0'.repeat(dateMax - head.length - 6)}+00:00`
  }
  for (const [input, query] of [
    [
      `limit=100, offset=${offsetMax}, sortBy=participantCount desc`,
      `limit=100&offset=${offsetMax}&sortBy=participantCount&sortOrder=desc`,
    ],
    [
      `limit=100, offset=${offsetMax}, sortBy=name, ${dateMax}-character dates`,
      `limit=100&offset=${offsetMax}&sortBy=name&startDate=${q(date(2000))}&endDate=${q(date(2999))}`,
    ],
    [`offset=${offsetMax + 1} (refused)`, `offset=${offsetMax + 1}`],
  ]) {
    get('GET /contests', input, `/contests?${query}`)
  }
  get('GET /contests/{id}', '24-character id', `/contests/${ids[0]}`)
  get('GET /contests/{id}', '10,000-character id (refused)', `/contests/${text(10_000, 'a')}`)
  get('GET /contests/{id}/calendar.ics', '24-character id', `/contests/${ids[1]}/calendar.ics`)
  // The feed's query is strict (no `_`): the order of the platforms varies instead.
  const platforms = ['codeforces', 'leetcode', 'codechef', 'atcoder']
  const types = 'CF,IOI,ICPC,WEEKLY,BIWEEKLY,LONG,COOK_OFF,LUNCH_TIME,STARTERS,ABC,ARC,AGC,AHC'
  add('GET /contests/calendar.ics', 'every platform and type, durations 1 to 144000', (n) => {
    const order = [...platforms.slice(n % 4), ...platforms.slice(0, n % 4)]
    if (n >= 4) order.reverse()
    return {
      path: `/contests/calendar.ics?platform=${order}&type=${types}&minDuration=1&maxDuration=144000`,
    }
  })
  get(
    'GET /contests/calendar.ics',
    'platform list repeated to 11 KB (refused)',
    `/contests/calendar.ics?platform=${text(11_000, 'codeforces,')}codeforces`,
    false,
  )
  get(
    'GET /calendar/{file}',
    '43-character token and .ics (no such feed)',
    `/calendar/${randomBytes(32).toString('base64url')}.ics`,
  )
  const muteToken = `${ids[2]}.${ids[3]}.${randomBytes(32).toString('base64url')}`
  const unsubscribeToken = `${ids[2]}.${randomBytes(32).toString('base64url')}`
  for (const [path, token] of [
    ['/subscriptions/mute', muteToken],
    ['/unsubscribe', unsubscribeToken],
  ]) {
    get(`GET ${path}`, `${token.length}-character token, forged`, `${path}?token=${token}`)
    add(`POST ${path}`, `${token.length}-character token, forged`, () => ({
      method: 'POST',
      path: `${path}?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    }))
  }
  get('GET /notifications/health', 'none', '/notifications/health', false)
  get('GET /users/push-subscriptions/public-key', 'none', '/users/push-subscriptions/public-key')

  // The home page shares the search's bound and builder.
  const every = platforms.map((p) => `platform=${p}`).join('&')
  get(
    'GET /',
    `every platform, q "a a a …" at the bound`,
    `/?${every}&q=${q(repeated(searchMax / 2))}`,
  )
  get(
    'GET /',
    'every platform, q: 10 prefixes of words in half the rows',
    `/?${every}&q=${q(commonPrefixes)}`,
  )
  get('GET /', 'q: 1,000 words "a a a …" (refused)', `/?q=${q(repeated(1_000))}`)
  // The page's own bound: 200 contests listed, the most the 14 days show (searched or not).
  get('GET /', 'every platform, no q (200 contests listed)', `/?${every}`)
  get('GET /', 'q matching nothing', `/?q=${q(distinctWords(searchMax))}`)

  // Account bodies (src/auth/schemas.ts), each field at its bound; a field without one fills the
  // body limit.
  const email = (tag) => longEmail(maxLength(doc, 'Signup', 'email', 254), tag)
  const password = maxLength(doc, 'Signup', 'password', 128)
  const signinPassword = maxLength(doc, 'Signin', 'password', 1024)
  // A name's bound, when the document states none, is the web form's (100); a name filling the
  // body limit is sent as well, to measure what an unstated bound leaves open.
  const nameMax = component(doc, 'Signup')?.properties?.name?.maxLength
  let signups = 0
  const signup = () => ({
    email: email(`s${signups++}${Date.now()}`),
    password: text(password, 'pw'),
  })
  json(
    'POST /auth/signup',
    `email 254, password ${password}, name ${nameMax ?? 100}`,
    '/auth/signup',
    () => JSON.stringify({ ...signup(), name: text(nameMax ?? 100, 'n') }),
  )
  if (nameMax === undefined) {
    json(
      'POST /auth/signup',
      'name filling the 64 KiB body (no stated bound)',
      '/auth/signup',
      () => fillBody(signup(), 'name'),
    )
  }
  json('POST /auth/signin', `email 254, password ${signinPassword}`, '/auth/signin', {
    email: email('signin'),
    password: text(signinPassword, 'pw'),
  })
  json(
    'POST /auth/recover-account',
    `email 254, password ${signinPassword}`,
    '/auth/recover-account',
    {
      email: email('recover'),
      password: text(signinPassword, 'pw'),
    },
  )
  json('POST /auth/verify-email', 'email 254, code', '/auth/verify-email', {
    email: email('verify'),
    code: '123456',
  })
  json('POST /auth/resend-verification', 'email 254', '/auth/resend-verification', {
    email: email('resend'),
  })
  json('POST /auth/forgot-password', 'email 254', '/auth/forgot-password', {
    email: email('forgot'),
  })
  json(
    'POST /auth/reset-password',
    `email 254, code, newPassword ${password}`,
    '/auth/reset-password',
    {
      email: email('reset'),
      code: '123456',
      newPassword: text(password, 'pw'),
    },
  )
  const refreshMax = maxLength(doc, 'Refresh', 'refreshToken', 512)
  json('POST /auth/refresh', `refreshToken ${refreshMax}`, '/auth/refresh', {
    refreshToken: text(refreshMax, 'r'),
  })
  const googleCode = maxLength(doc, 'GoogleToken', 'code', 256)
  json('POST /auth/google/token', `code ${googleCode}`, '/auth/google/token', {
    code: text(googleCode, 'c'),
  })
  const redirectMax = paramMax(doc, '/auth/google/start', 'get', 'redirect_uri', 2048)
  const stateMax = paramMax(doc, '/auth/google/start', 'get', 'state', 512)
  // A page of the service's own origin (APP_URL), which is what the start accepts.
  const redirect = `${appUrl}/app/${text(redirectMax - appUrl.length - 5, 'r')}`
  get(
    'GET /auth/google/start',
    `redirect_uri ${redirectMax}, state ${stateMax}`,
    `/auth/google/start?redirect_uri=${q(redirect)}&state=${text(stateMax, 's')}`,
  )
  const callback = ['state', 'code', 'error'].map(
    (name) => `${name}=${text(paramMax(doc, '/auth/google/callback', 'get', name, 512), name[0])}`,
  )
  get(
    'GET /auth/google/callback',
    'state, code and error at their bounds',
    `/auth/google/callback?${callback.join('&')}`,
  )

  // The contact form, each field at its bound.
  const contact = (field) => maxLength(doc, 'ContactMessage', field, 10_000)
  json('POST /contact', 'name 200, email 254, subject 200, message 10,000', '/contact', {
    name: text(contact('name'), 'n'),
    email: longEmail(contact('email'), 'contact'),
    subject: text(contact('subject'), 's'),
    message: text(contact('message'), 'message '),
  })

  // A browser's renewal of its push subscription: endpoints at 2048 characters, real keys.
  const subscription = (tag) => ({
    endpoint: `https://fcm.googleapis.com/fcm/send/${tag}${text(2048 - 37 - tag.length, 'e')}`,
    keys: pushKeys(),
  })
  json(
    'POST /users/push-subscriptions/renew',
    'two 2048-character endpoints',
    '/users/push-subscriptions/renew',
    () =>
      JSON.stringify({ old: subscription('old'), subscription: subscription(`new${Date.now()}`) }),
  )

  // Signed webhooks: the whole body limit, checked against the signature (or the secret).
  const resendBody = fillBody(
    { type: 'email.bounced', created_at: new Date().toISOString() },
    'pad',
  )
  json(
    'POST /providers/resend/events',
    '64 KiB body, 10 forged signatures',
    '/providers/resend/events',
    resendBody,
    {
      'svix-id': `msg_${randomBytes(16).toString('hex')}`,
      'svix-timestamp': String(Math.floor(Date.now() / 1000)),
      'svix-signature': Array.from(
        { length: 10 },
        () => `v1,${randomBytes(32).toString('base64')}`,
      ).join(' '),
    },
  )
  json(
    'POST /telegram/webhook',
    'the right secret, /start with a token filling the 64 KiB body',
    '/telegram/webhook',
    () => {
      const message = { chat: { id: Number.MAX_SAFE_INTEGER } }
      const base = JSON.stringify({
        update_id: Number.MAX_SAFE_INTEGER,
        message: { ...message, text: '/start ' },
      })
      const token = text(BODY_LIMIT - base.length - 16, 't')
      return JSON.stringify({
        update_id: Number.MAX_SAFE_INTEGER,
        message: { ...message, text: `/start ${token}` },
      })
    },
    { 'x-telegram-bot-api-secret-token': SETTINGS.TELEGRAM_WEBHOOK_SECRET },
  )

  // The web app's pages before sign-in, with their query parameters at their bounds, and its
  // forms (CSRF token and cookie from the page, as a browser sends them).
  const next = `/app/${text(507, 'n')}`
  get('GET /app/signin', 'next 512, notice', `/app/signin?next=${q(next)}&notice=signed-out`)
  get('GET /app/', 'none (to sign-in)', '/app/')
  for (const page of ['forgot', 'reset', 'signup', 'verify', 'account/recover']) {
    get(`GET /app/${page}`, 'none', `/app/${page}`)
  }
  get('GET /app/account/closed', 'reason', '/app/account/closed?reason=deleted')
  get(
    'GET /app/google/done',
    'state 1024, code 256, error 64',
    `/app/google/done?state=${text(1024, 's')}&code=${text(256, 'c')}&error=${text(64, 'e')}`,
  )
  const form = (route, input, path, fields) =>
    add(route, input, () => ({
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: csrf.cookie,
        origin: csrf.origin,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({
        _csrf: csrf.token,
        ...(typeof fields === 'function' ? fields() : fields),
      }).toString(),
    }))
  form('POST /app/signin', `email 254, password ${signinPassword}`, '/app/signin', {
    email: email('websignin'),
    password: text(signinPassword, 'pw'),
  })
  form('POST /app/forgot', 'email 254', '/app/forgot', { email: email('webforgot') })
  form(
    'POST /app/account/recover',
    `email 254, password ${signinPassword}`,
    '/app/account/recover',
    {
      email: email('webrecover'),
      password: text(signinPassword, 'pw'),
    },
  )
  form(
    'POST /app/signup',
    `email 254, password ${password}, name ${nameMax ?? 100}`,
    '/app/signup',
    () => ({ ...signup(), name: text(nameMax ?? 100, 'n') }),
  )

  // The documents and files every visitor loads.
  get('GET /openapi.json', 'none', '/openapi.json', false)
  get('GET /docs', 'none', '/docs', false)
  get('GET /sw.js', 'none', '/sw.js', false)
  return all
}

// ---- running them ----------------------------------------------------------------------------

async function timed(base, { path, method = 'GET', headers = {}, body }) {
  const started = performance.now()
  try {
    const res = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' })
    const answer = await res.text()
    const ms = performance.now() - started
    // What a refusal said, for the console: a 400 where an accepted value was meant is a bug here.
    const said = res.status >= 400 ? answer.replace(/\s+/g, ' ').slice(0, 160) : undefined
    return { ms, status: res.status, said }
  } catch (err) {
    return { ms: performance.now() - started, status: `error: ${err.cause?.code ?? err.message}` }
  }
}

/** A pre-sign-in page's CSRF token and the cookie it belongs to, as a browser would keep them. */
async function webForm(base) {
  const res = await fetch(`${base}/app/signin`, {
    headers: { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
  })
  const html = await res.text()
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1]
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (!token) console.warn('! /app/signin carries no CSRF token; the form cases will be refused')
  return { token: token ?? '', cookie, origin: base }
}

/**
 * How long a contest's page takes while `n` of the costliest accepted searches run beside it:
 * the finding's second half (one search stalled every other reader of the database).
 */
async function beside(base, id, search, n = 10) {
  const busy = Array.from({ length: n }, (_, i) => timed(base, search.request(2_000 + i)))
  const read = await timed(base, { path: `/contests/${id}?_=beside${Date.now()}` })
  const searches = await Promise.all(busy)
  return { input: search.input, read, slowestSearch: Math.max(...searches.map((s) => s.ms)) }
}

async function measure(name, now, seed) {
  const runtime = RUNTIMES[name]
  rmSync(runtime.state, { recursive: true, force: true })
  console.log(`${runtime.label}: loading ${CONTESTS} contests into ${runtime.state}...`)
  runtime.seed(runtime.state, seed.path)
  const port = Number(process.env.BENCH_PORT) || (await freePort())
  const mail = await resendStandIn()
  const vars = {
    ...SETTINGS,
    APP_URL: `http://127.0.0.1:${port}`,
    RESEND_API_KEY: 're_bench',
    RESEND_API_URL: mail.url,
  }
  const server = await runtime.start(runtime.state, port, vars).catch((err) => {
    mail.close()
    throw err
  })
  console.log(`${runtime.label} answers on ${server.base}`)
  const worst = new Map()
  let concurrent
  try {
    const doc = await (await fetch(`${server.base}/openapi.json`)).json()
    const csrf = await webForm(server.base)
    const list = cases({ doc, ids: seed.ids, csrf, appUrl: server.base }).filter(
      (c) => !ONLY || ONLY.test(c.route),
    )
    // One warm-up request per case: code compiled and connections open before anything counts.
    for (const [i, c] of list.entries()) await timed(server.base, c.request(1_000 + i))
    const samples = new Map(list.map((c) => [c, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of list) {
        const request = c.request(round)
        samples.get(c).push({ ...(await timed(server.base, request)), input: c.input, request })
      }
    }
    // Per case its slowest answer and the median of its times (the machine's noise shows in the
    // first, the route's cost in the second); per route the case with the slowest answer.
    const slowestOfCase = new Map()
    for (const [c, answers] of samples) {
      const times = answers.map((a) => a.ms).sort((a, b) => a - b)
      const slowest = answers.reduce((a, b) => (b.ms > a.ms ? b : a))
      const answer = { ...slowest, median: times[Math.floor(times.length / 2)] }
      slowestOfCase.set(c, answer)
      if (answer.ms > (worst.get(c.route)?.ms ?? -1)) worst.set(c.route, answer)
      console.log(
        `  ${answer.ms.toFixed(1).padStart(8)} ms, median ${answer.median.toFixed(1).padStart(7)} ms ` +
          `(${answer.status}) ${c.route} [${c.input}]`,
      )
    }
    // The costliest search that was answered (not refused) by its median, then ten at once.
    const [costliest, search] =
      [...slowestOfCase]
        .filter(([c, a]) => c.route === SEARCH && a.status === 200)
        .sort((a, b) => b[1].median - a[1].median)[0] ?? []
    if (costliest) concurrent = await beside(server.base, seed.ids[4], costliest)
    const health = worst.get('GET /contests/health')
    return { runtime, worst, search, health, concurrent, unbounded: unboundedFields(doc) }
  } finally {
    await server.stop()
    mail.close()
  }
}

/**
 * Resend, as far as the service can tell: every email accepted. Mail then goes out as deployed
 * (the contact form answers 200, not the 500 of a failed send; codes are sent after the answer).
 */
async function resendStandIn() {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const batch = req.url?.endsWith('/batch')
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(batch ? { data: [] } : { id: randomBytes(8).toString('hex') }))
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }
}

// ---- the audit of the OpenAPI document -------------------------------------------------------

/**
 * Where a public operation of the document takes a string or a list with no stated bound (no
 * maxLength, enum, pattern or maxItems). Numbers cost the same whatever their value.
 */
function unboundedFields(doc) {
  const found = []
  const visit = (where, schema, depth = 0) => {
    if (!schema || depth > 6) return
    if (schema.$ref) return visit(where, component(doc, schema.$ref), depth + 1)
    for (const part of [
      ...(schema.anyOf ?? []),
      ...(schema.oneOf ?? []),
      ...(schema.allOf ?? []),
    ]) {
      visit(where, part, depth + 1)
    }
    if (schema.enum || schema.const !== undefined) return
    if (schema.type === 'string' && schema.maxLength === undefined && !schema.pattern)
      found.push(where)
    if (schema.type === 'array') {
      if (schema.maxItems === undefined) found.push(`${where} (items)`)
      visit(`${where}[]`, schema.items, depth + 1)
    }
    for (const [key, value] of Object.entries(schema.properties ?? {})) {
      visit(`${where}.${key}`, value, depth + 1)
    }
  }
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      if (op.security?.length) continue
      const route = `${method.toUpperCase()} ${path}`
      for (const p of op.parameters ?? []) visit(`${route} ${p.in} ${p.name}`, p.schema)
      const body = op.requestBody?.content?.['application/json']?.schema
      if (body) visit(`${route} body`, body)
    }
  }
  return found
}

// ---- the doc ---------------------------------------------------------------------------------

const MARKERS = [`<!-- bench:${SECTION}:start -->`, `<!-- bench:${SECTION}:end -->`]

function readSection() {
  const doc = readFileSync(DOC, 'utf8')
  const from = doc.indexOf(MARKERS[0])
  const to = doc.indexOf(MARKERS[1], from)
  if (from < 0 || to < 0) throw new Error(`${DOC} has no ${MARKERS[0]} section`)
  return doc.slice(from + MARKERS[0].length, to).split('\n')
}

function replaceSection(lines) {
  const doc = readFileSync(DOC, 'utf8')
  const pattern = new RegExp(`${MARKERS[0]}[\\s\\S]*${MARKERS[1]}`)
  // A function, so a `$` in the figures is not read as a replacement pattern.
  writeFileSync(
    DOC,
    doc.replace(pattern, () => [MARKERS[0], ...lines, MARKERS[1]].join('\n')),
  )
  console.log(`Figures written to ${DOC} (Bounded input)`)
}

const escapeCell = (s) => String(s).replace(/\|/g, '\\|')
const INPUT = 'input of the slowest answer'
/** Each runtime's columns of the table, by header. */
const columns = (label) => [`${label}: slowest ms (status)`, `${label}: median ms`]
const figures = (w) => (w ? [`${w.ms.toFixed(1)} (${w.status})`, w.median.toFixed(1)] : ['', ''])

/** A Markdown table row's trimmed cells; undefined for other lines and the header rule. */
function tableCells(line) {
  if (!line.startsWith('|')) return undefined
  const cells = line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim())
  return cells.every((c) => /^:?-+:?$/.test(c)) ? undefined : cells
}

/**
 * The section from this run's runtimes and, for a runtime not run now, its columns and note as
 * the doc has them, so one runtime can be measured again alone.
 */
function section(results, now) {
  const names = Object.keys(RUNTIMES)
  const notes = {}
  const kept = new Map()
  let header
  for (const line of readSection()) {
    for (const key of names) {
      if (line.startsWith(`- ${RUNTIMES[key].label}: `)) notes[key] = line
    }
    const cells = tableCells(line)
    if (!cells) continue
    if (!header) header = cells
    else kept.set(cells[0], Object.fromEntries(header.map((h, i) => [h, cells[i]])))
  }
  const measured = new Map(results.map((r) => [r.name, r]))
  const [load] = loadavg()
  for (const r of results) {
    const slowest = r.worst.get(SEARCH)
    const within = r.search.median < SEARCH_BUDGET_MS ? 'within' : 'over'
    notes[r.name] =
      `- ${r.runtime.label}: run of ${new Date(now).toISOString()} on this machine ` +
      `(${process.platform}, ${cpus().length} cores shared, load ${load.toFixed(1)} at the end; ` +
      `Node ${process.version}), ${r.runtime.describe()}, ${CONTESTS} contests, ${ROUNDS} rounds ` +
      `of every case after a warm-up, rate limits off. The costliest accepted search ` +
      `(${r.search.input}): median ${r.search.median.toFixed(1)} ms, ${within} the ` +
      `${SEARCH_BUDGET_MS} ms budget; the slowest answered search ${slowest.ms.toFixed(1)} ms ` +
      `(${slowest.input}), while the health check, which does nothing, took up to ` +
      `${r.health.ms.toFixed(1)} ms. A contest's page read while 10 of that search ran at once: ` +
      `${r.concurrent.read.ms.toFixed(1)} ms (${r.concurrent.read.status}), the slowest of those ` +
      `searches ${r.concurrent.slowestSearch.toFixed(1)} ms.`
  }
  const routes = [...new Set([...results.flatMap((r) => [...r.worst.keys()]), ...kept.keys()])]
  const rows = routes.map((route) => {
    const old = kept.get(route) ?? {}
    const inputs = results
      .filter((r) => r.worst.has(route))
      .map((r) => [r.runtime.label, r.worst.get(route).input])
    const same = inputs.every(([, input]) => input === inputs[0]?.[1])
    const input =
      inputs.length === 0
        ? (old[INPUT] ?? '')
        : same
          ? inputs[0][1]
          : inputs.map(([label, i]) => `${label}: ${i}`).join('; ')
    const cells = names.flatMap((key) =>
      measured.has(key)
        ? figures(measured.get(key).worst.get(route))
        : columns(RUNTIMES[key].label).map((h) => old[h] ?? ''),
    )
    return `| ${[route, input, ...cells].map(escapeCell).join(' | ')} |`
  })
  const heads = ['route', INPUT, ...names.flatMap((key) => columns(RUNTIMES[key].label))]
  const unbounded = results.at(-1).unbounded
  return [
    ...names.map(
      (key) =>
        notes[key] ??
        `- ${RUNTIMES[key].label}: not measured yet (\`npm run bench:abuse -- --runtime ${key}\`).`,
    ),
    '',
    `| ${heads.join(' | ')} |`,
    `|${heads.map(() => '---').join('|')}|`,
    ...rows,
    '',
    unbounded.length
      ? `Public fields the OpenAPI document states no bound for: ${unbounded.map((u) => `\`${u}\``).join(', ')}.`
      : 'Every string and list of every public operation in the OpenAPI document states a bound.',
  ]
}

// ---- main ------------------------------------------------------------------------------------

function options() {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        runtime: { type: 'string', default: process.env.BENCH_RUNTIME || 'all' },
        'no-write': { type: 'boolean', default: ['0', 'false'].includes(process.env.BENCH_WRITE) },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }))
  } catch (err) {
    console.error(`${err.message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const names = values.runtime === 'all' ? Object.keys(RUNTIMES) : [values.runtime]
  if (!names.every((n) => Object.hasOwn(RUNTIMES, n))) {
    console.error(
      `Unknown runtime "${values.runtime}"; known: all, ${Object.keys(RUNTIMES).join(', ')}\n\n${USAGE}`,
    )
    process.exit(2)
  }
  return { names, write: !values['no-write'] }
}

async function main() {
  const { names, write } = options()
  const now = Date.now()
  const seed = seedFile(now)
  const results = []
  for (const name of names) {
    const r = await measure(name, now, seed)
    results.push({ name, ...r })
    console.log(`\n${r.runtime.label}: slowest answer per route`)
    for (const [route, w] of [...r.worst].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(
        `  ${w.ms.toFixed(1).padStart(8)} ms  ${String(w.status).padEnd(4)} ${route}  [${w.input}]` +
          (w.said ? `\n${' '.repeat(18)}${w.said}` : ''),
      )
    }
    if (r.concurrent) {
      console.log(
        `  beside 10 of "${r.concurrent.input}": GET /contests/{id} ` +
          `${r.concurrent.read.ms.toFixed(1)} ms, slowest search ` +
          `${r.concurrent.slowestSearch.toFixed(1)} ms\n`,
      )
    }
  }
  const unbounded = results.at(-1).unbounded
  if (unbounded.length) console.log(`Public fields without a stated bound: ${unbounded.join(', ')}`)
  const overBudget = results.filter((r) => (r.search?.median ?? 0) >= SEARCH_BUDGET_MS)
  if (write && !ONLY) replaceSection(section(results, now))
  else console.log('Figures not written (--no-write, BENCH_WRITE=0 or BENCH_ONLY)')
  if (overBudget.length) {
    console.error(
      `The costliest search's median took ${SEARCH_BUDGET_MS} ms or more on ` +
        overBudget.map((r) => r.runtime.label).join(', '),
    )
    process.exitCode = 1
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
