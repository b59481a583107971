// Outbound targets and the signing secret after the outside review: push endpoints limited to the
// known push services (SSRF, redirects, provider text, a cap), one local-run switch for every
// outbound kind, push subscription takeover, IPv6 forms that embed IPv4 addresses, and the
// example JWT secret refused by the Worker and by `npm start`.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { authConfig } from '../src/auth/config.ts'
import type { Env } from '../src/env.ts'
import { isNonPublicHost } from '../src/lib/ip-targets.ts'
import { EXAMPLE_JWT_SECRETS } from '../src/lib/jwt-secret.ts'
import { newId } from '../src/lib/ids.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from '../src/notifications/delivery/status.ts'
import { webhookConfig } from '../src/webhooks/config.ts'
import { devVarsWithSecret, EXAMPLE_SECRETS } from '../scripts/lib/dev-secret.mjs'
import { addContests, contest } from './helpers/contests.ts'
import {
  consume,
  notificationsOf,
  pushKeys,
  recipient,
  resetNotifications,
  runScheduler,
  testEnv,
} from './helpers/notifications.ts'
import { standIn, recordedPath, standInUrl } from './helpers/stand-in.ts'
import { api, createAdmin, createUser, type TestUser } from './helpers/users.ts'
import { clearWebhooks } from './helpers/webhooks.ts'

const LOCAL: Partial<Env> = { ALLOW_LOCAL_TARGETS: 'true' }
const NOT_A_PUSH_SERVICE = 'endpoint must belong to a known push service'
const PRIVATE_ENDPOINT = 'endpoint must not point to a private, loopback or link-local address'

let admin: TestUser

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(async () => {
  await resetNotifications()
  // The reset deactivates every earlier user; the admin of these tests stays.
  await env.DB.prepare('UPDATE users SET is_active = 1 WHERE id = ?').bind(admin.id).run()
  await clearWebhooks()
})

async function browserKeys() {
  const { p256dh, auth } = await pushKeys()
  return { p256dh, auth }
}

async function register(
  user: TestUser,
  endpoint: string,
  keys?: { p256dh: string; auth: string },
  bindings: Partial<Env> = {},
) {
  return api('POST', '/users/push-subscriptions', {
    token: user.accessToken,
    body: { endpoint, expirationTime: null, keys: keys ?? (await browserKeys()) },
    bindings,
  })
}

const subscriptionRows = (userId: string) =>
  env.DB.prepare('SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ?')
    .bind(userId)
    .all<{ endpoint: string; p256dh: string; auth: string }>()
    .then((r) => r.results)

const ownerOf = async (endpoint: string) =>
  (
    await env.DB.prepare('SELECT user_id FROM push_subscriptions WHERE endpoint = ?')
      .bind(endpoint)
      .first<{ user_id: string }>()
  )?.user_id

/** A push reminder due now for a user subscribed at the stand-in; its push delivery message. */
async function duePushReminder(over: Partial<Env> = {}) {
  const e = testEnv(over)
  const user = await recipient({ channels: { push: true }, push: true })
  await addContests([contest(3)])
  await runScheduler(e)
  e.NOTIFICATIONS_QUEUE.bodies.splice(0)
  const [notification] = await notificationsOf(user.id)
  const delivery = notification.deliveries.find((d: { channel: string }) => d.channel === 'push')
  return { e, user, message: { body: { deliveryId: delivery.id }, attempts: 1 } }
}

const pushDelivery = async (userId: string) =>
  (await notificationsOf(userId))[0].deliveries.find(
    (d: { channel: string }) => d.channel === 'push',
  )

describe('push endpoints (item 3)', () => {
  it.each([
    ['https://127.0.0.1:9443/push/abc', PRIVATE_ENDPOINT],
    ['https://169.254.169.254/latest/meta-data/', PRIVATE_ENDPOINT],
    ['https://[::1]/push', PRIVATE_ENDPOINT],
    ['https://push.example.test/send/abc', NOT_A_PUSH_SERVICE],
    ['https://fcm.googleapis.com.attacker.example/fcm/send/abc', NOT_A_PUSH_SERVICE],
    ['https://notify.windows.com/w/?token=abc', NOT_A_PUSH_SERVICE],
    ['https://fcm.googleapis.com:8443/fcm/send/abc', NOT_A_PUSH_SERVICE],
  ])('refuses %s at registration with 400 in the error shape', async (endpoint, message) => {
    const me = await createUser()
    const res = await register(me, endpoint)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ statusCode: 400, message: [message], error: 'Bad Request' })
    expect(await subscriptionRows(me.id)).toEqual([])
  })

  it.each([
    'https://fcm.googleapis.com/fcm/send/fv3jabydF5c:APA91bEc8',
    'https://android.googleapis.com/gcm/send/ABCD1234',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
    'https://wns2-db5p.notify.windows.com/w/?token=BQYAAADuof2g',
    'https://web.push.apple.com/QGuQyavXutnMH',
  ])('accepts the endpoint a real browser hands out: %s', async (endpoint) => {
    const me = await createUser()
    const res = await register(me, endpoint)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  })

  it('takes its list of push services from PUSH_SERVICE_HOSTS when set', async () => {
    const me = await createUser()
    const hosts = { PUSH_SERVICE_HOSTS: 'push.example.test, *.push.example.org' }
    expect((await register(me, 'https://push.example.test/a', undefined, hosts)).status).toBe(201)
    expect((await register(me, 'https://eu.push.example.org/b', undefined, hosts)).status).toBe(201)
    const fcm = await register(me, 'https://fcm.googleapis.com/fcm/send/c', undefined, hosts)
    expect(fcm.body.message).toEqual([NOT_A_PUSH_SERVICE])
  })

  it('caps a user at 10 subscriptions, while re-registering one of them still works', async () => {
    const me = await createUser()
    const endpoints = Array.from(
      { length: 10 },
      () => `https://fcm.googleapis.com/fcm/send/${newId()}`,
    )
    const keys = await browserKeys()
    for (const endpoint of endpoints) expect((await register(me, endpoint, keys)).status).toBe(201)

    const eleventh = await register(me, `https://fcm.googleapis.com/fcm/send/${newId()}`)
    expect(eleventh.status).toBe(400)
    expect(eleventh.body).toEqual({
      statusCode: 400,
      message: 'At most 10 push subscriptions per account; remove one first',
      error: 'Bad Request',
    })
    expect((await register(me, endpoints[0], await browserKeys())).status).toBe(200)

    await api('DELETE', '/users/push-subscriptions', {
      token: me.accessToken,
      body: { endpoint: endpoints[1] },
    })
    expect((await register(me, `https://fcm.googleapis.com/fcm/send/${newId()}`)).status).toBe(201)
    expect(await subscriptionRows(me.id)).toHaveLength(10)
  })

  it('does not contact a stored endpoint that is no longer admitted, and says why', async () => {
    // Stored directly (as before this check existed); the deployment does not admit loopback.
    const { e, user, message } = await duePushReminder({ ALLOW_LOCAL_TARGETS: 'false' })
    const [result] = await consume(e, [message])
    expect(result).toMatchObject({ acked: true, retried: false })
    expect(await standIn.requests('/push/')).toEqual([])
    expect(await pushDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Not sent: endpoint must be an https URL',
    })
  })

  it('never follows a push service redirect: a 3xx fails the delivery for good', async () => {
    const { e, user, message } = await duePushReminder(LOCAL)
    await standIn.script({
      method: 'POST',
      pathPrefix: '/push/',
      responses: [{ status: 302, headers: { location: `${standInUrl}/metadata/latest` } }],
    })
    const [result] = await consume(e, [message])
    expect(result).toMatchObject({ acked: true, retried: false })
    expect(await standIn.requests('/metadata')).toEqual([])
    expect(await pushDelivery(user.id)).toMatchObject({
      status: 'FAILED',
      error: 'Push service answered 302',
    })
    expect(await subscriptionRows(user.id)).toHaveLength(1)
  })

  it('keeps the push service’s answer out of the delivery error users see', async () => {
    const { e, user, message } = await duePushReminder(LOCAL)
    const leak = 'internal-host db-7.corp token=sk_live_4eC39HqLyjWDarjtT1zdp7dc'
    await standIn.script({
      method: 'POST',
      pathPrefix: '/push/',
      responses: [{ status: 500, body: leak }],
    })
    const [result] = await consume(e, [message])
    expect(result).toMatchObject({
      retried: true,
      delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0],
    })
    expect(await pushDelivery(user.id)).toMatchObject({
      status: 'RETRYING',
      error: 'Push service answered 500',
    })
    const history = await api('GET', '/notifications/notifications', { token: user.accessToken })
    expect(history.status).toBe(200)
    const text = JSON.stringify(history.body)
    expect(text).toContain('Push service answered 500')
    expect(text).not.toContain('sk_live_')
    expect(text).not.toContain('db-7.corp')
  })
})

describe('one local-run switch for every outbound kind (item 4)', () => {
  const webhook = (url: string, bindings: Partial<Env>) =>
    api('POST', '/webhooks', {
      token: admin.accessToken,
      body: { url, events: ['contest.created'] },
      bindings,
    })
  const submission = (user: TestUser, url: string, bindings: Partial<Env>) =>
    api('POST', '/resources/submissions', {
      token: user.accessToken,
      body: { title: 'Local notes', type: 'url', source_url: url },
      bindings,
    })

  it('is off in tests, as in wrangler.toml', () => {
    expect(env.ALLOW_LOCAL_TARGETS).toBe('false')
  })

  it('without ALLOW_LOCAL_TARGETS, loopback targets are refused for webhooks, resources and push', async () => {
    const me = await createUser()
    const hook = await webhook(`${standInUrl}/hooks/x`, {})
    expect(hook.status).toBe(400)
    const resource = await submission(me, `${standInUrl}/doc`, {})
    expect(resource.status).toBe(400)
    const push = await register(me, `${standInUrl}/push/${newId()}`)
    expect(push.status).toBe(400)
    expect(push.body.message).toEqual(['endpoint must be an https URL'])
  })

  it('ALLOW_LOCAL_TARGETS=true admits loopback http targets for webhooks, resources and push', async () => {
    const me = await createUser()
    expect((await webhook(`${standInUrl}/hooks/x`, LOCAL)).status).toBe(201)
    expect((await submission(me, `${standInUrl}/doc`, LOCAL)).status).toBe(201)
    expect((await register(me, `${standInUrl}/push/${newId()}`, undefined, LOCAL)).status).toBe(201)
  })

  it('ALLOW_LOCAL_TARGETS=true still applies the push allow-list to public hosts', async () => {
    const me = await createUser()
    const res = await register(me, 'https://push.example.test/a', undefined, LOCAL)
    expect(res.body.message).toEqual([NOT_A_PUSH_SERVICE])
  })

  it('ALLOW_LOCAL_TARGETS=true still refuses link-local and cloud metadata targets, for every kind', async () => {
    const me = await createUser()
    const profile = (field: string, url: string) =>
      api('PUT', '/users/profile', {
        token: me.accessToken,
        body: { preferences: { [field]: url } },
        bindings: LOCAL,
      })
    const hosts = [
      '169.254.169.254',
      '[::ffff:169.254.169.254]',
      '[fe80::1]',
      '[fd00:ec2::254]',
      '100.100.100.200',
      'metadata.google.internal',
    ]
    for (const host of hosts) {
      const slack = await profile('slackWebhookUrl', `http://${host}/services/T01/B01/abc`)
      expect(slack.status, host).toBe(400)
      expect(slack.body.message, host).toEqual([
        'slackWebhookUrl must be a Slack webhook URL (https://hooks.slack.com/services/T…/B…/…)',
      ])
      const discord = await profile(
        'discordWebhookUrl',
        `http://${host}/api/webhooks/123456789012345678/token`,
      )
      expect(discord.status, host).toBe(400)
      const hook = await webhook(`http://${host}/latest/meta-data/`, LOCAL)
      expect(hook.status, host).toBe(400)
      expect(hook.body.message, host).toEqual([
        'url must not point to a private, loopback or link-local address',
      ])
      expect((await submission(me, `http://${host}/latest/meta-data/`, LOCAL)).status, host).toBe(
        400,
      )
      const push = await register(me, `http://${host}/push/${newId()}`, undefined, LOCAL)
      expect(push.status, host).toBe(400)
      expect(push.body.message, host).toEqual([PRIVATE_ENDPOINT])
    }
    // A loopback stand-in is still admitted: the switch keeps doing its job.
    const standInSlack = `${standInUrl}/slack/services/T0LOCAL/B0LOCAL/secret1`
    expect((await profile('slackWebhookUrl', standInSlack)).status).toBe(200)
  })

  it('the old ALLOW_PRIVATE_WEBHOOK_TARGETS name admits nothing any more', async () => {
    // Env no longer names the setting, so only a binding typed as any string setting carries it.
    const retired: Partial<Env> & Record<string, string> = { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' }
    const res = await webhook(`${standInUrl}/hooks/x`, retired)
    expect(res.status).toBe(400)
  })

  it('a local stand-in push service works end to end: registered over the API, then sent', async () => {
    const e = testEnv(LOCAL)
    const user = await recipient({ channels: { push: true } })
    const endpoint = `${standInUrl}/push/${newId()}`
    expect((await register(user, endpoint, undefined, LOCAL)).status).toBe(201)
    await addContests([contest(3)])
    await runScheduler(e)
    await consume(
      e,
      e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 })),
    )
    expect(await standIn.requests(recordedPath(endpoint))).toHaveLength(1)
    expect(await pushDelivery(user.id)).toMatchObject({ status: 'SENT' })
  })
})

describe('push subscription takeover (item 9)', () => {
  it('keeps an endpoint with its account unless the request carries the stored keys', async () => {
    const owner = await createUser()
    const other = await createUser()
    const endpoint = `https://fcm.googleapis.com/fcm/send/${newId()}`
    const keys = await browserKeys()
    expect((await register(owner, endpoint, keys)).status).toBe(201)

    const taken = await register(other, endpoint)
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual({
      statusCode: 409,
      message: 'This push endpoint is registered to another account',
      error: 'Conflict',
    })
    expect(await ownerOf(endpoint)).toBe(owner.id)

    // The browser that owns the subscription has its keys: it may move to the account now signed in.
    const moved = await register(other, endpoint, keys)
    expect(moved.status).toBe(200)
    expect(await ownerOf(endpoint)).toBe(other.id)
  })

  it('lets the owner register its endpoint again with new keys', async () => {
    const owner = await createUser()
    const endpoint = `https://updates.push.services.mozilla.com/wpush/v2/${newId()}`
    await register(owner, endpoint)
    const rotated = await browserKeys()
    expect((await register(owner, endpoint, rotated)).status).toBe(200)
    expect(await subscriptionRows(owner.id)).toEqual([{ endpoint, ...rotated }])
  })
})

describe('IPv6 forms that embed an IPv4 address (item 10)', () => {
  const hook = (url: string) =>
    api('POST', '/webhooks', {
      token: admin.accessToken,
      body: { url, events: ['contest.created'] },
    })

  // Teredo: 2001:0:<server IPv4>:<flags>:<port>:<client IPv4 XOR ffff:ffff>.
  it.each([
    ['IPv4-translated ::ffff:0:0:0/96', '[::ffff:0:10.0.0.1]', '[::ffff:0:8.8.8.8]'],
    ['NAT64 64:ff9b::/96', '[64:ff9b::192.168.1.1]', '[64:ff9b::8.8.8.8]'],
    ['6to4 2002::/16', '[2002:a9fe:a9fe::1]', '[2002:808:808::1]'],
    [
      'Teredo 2001::/32, private client',
      '[2001:0:4136:e378:8000:63bf:f5ff:fffe]',
      '[2001:0:4136:e378:8000:63bf:f7f7:f7f7]',
    ],
    [
      'Teredo 2001::/32, private server',
      '[2001:0:a00:1:8000:63bf:f7f7:f7f7]',
      '[2001:0:4136:e378:8000:63bf:f7f7:f7f7]',
    ],
  ])(
    '%s: refused with a private address inside, admitted with a public one',
    async (_, bad, good) => {
      expect(isNonPublicHost(new URL(`https://${bad}/`).hostname)).toBe(true)
      expect(isNonPublicHost(new URL(`https://${good}/`).hostname)).toBe(false)
      const refused = await hook(`https://${bad}/hooks`)
      expect(refused.status).toBe(400)
      expect(refused.body.message).toEqual([
        'url must not point to a private, loopback or link-local address',
      ])
      expect((await hook(`https://${good}/hooks`)).status).toBe(201)
    },
  )

  it('refuses the local-use NAT64 prefix 64:ff9b:1::/48 whatever it embeds', () => {
    expect(isNonPublicHost('[64:ff9b:1::a00:1]')).toBe(true)
    expect(isNonPublicHost('[64:ff9b:1:808:8:800::]')).toBe(true)
  })
})

describe('the example JWT secret (item 11)', () => {
  const OLD_EXAMPLE = 'local-development-secret-change-me-0123456789'

  it('the Worker refuses the example secret and secrets under 32 characters, clearly', async () => {
    for (const secret of [OLD_EXAMPLE, 'short-secret-31-characters-long']) {
      const bound = { ...env, JWT_SECRET: secret }
      expect(() => authConfig(bound)).toThrow(/JWT_SECRET/)
      expect(() => webhookConfig(bound)).toThrow(/JWT_SECRET/)
      const res = await api('POST', '/auth/signup', {
        body: { email: `x-${newId()}@example.test`, password: 'a-long-password-1', name: 'X Y' },
        bindings: { JWT_SECRET: secret },
      })
      expect(res.status).toBe(500)
    }
    expect(() => authConfig({ ...env })).not.toThrow()
  })

  it('the Worker and npm start refuse the same published values, the example’s placeholder included', () => {
    expect(EXAMPLE_SECRETS).toEqual(EXAMPLE_JWT_SECRETS)
    expect(EXAMPLE_JWT_SECRETS).toContain(OLD_EXAMPLE)
    for (const secret of EXAMPLE_JWT_SECRETS) {
      expect(() => authConfig({ ...env, JWT_SECRET: secret })).toThrow(/example/)
    }
  })

  it('npm start writes a fresh random JWT_SECRET into a new .dev.vars', () => {
    const example = `# local\nJWT_SECRET=${EXAMPLE_JWT_SECRETS[0]}\nDEV_OUTBOX=true\n`
    const secret = 'A'.repeat(43)
    const made = devVarsWithSecret(undefined, example, () => secret)
    expect(made.action).toBe('created')
    expect(made.text).toBe(`# local\nJWT_SECRET=${secret}\nDEV_OUTBOX=true\n`)
  })

  it('npm start replaces the old example secret in an existing .dev.vars and refuses a short one', () => {
    const fresh = () => 'B'.repeat(43)
    const old = devVarsWithSecret(`DEV_OUTBOX=true\nJWT_SECRET="${OLD_EXAMPLE}"\n`, '', fresh)
    expect(old).toEqual({ action: 'replaced', text: `DEV_OUTBOX=true\nJWT_SECRET=${fresh()}\n` })
    const missing = devVarsWithSecret('DEV_OUTBOX=true\n', '', fresh)
    expect(missing).toEqual({ action: 'added', text: `DEV_OUTBOX=true\nJWT_SECRET=${fresh()}\n` })
    const mine = `JWT_SECRET=${'c'.repeat(40)}\n`
    expect(devVarsWithSecret(mine, '', fresh)).toEqual({ action: 'kept', text: mine })
    const short = devVarsWithSecret('JWT_SECRET=tooshort\n', '', fresh)
    expect(short.action).toBe('refused')
    expect(short.message).toMatch(/at least 32 characters/)
  })
})
