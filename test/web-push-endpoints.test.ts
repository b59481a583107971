// Web Push for the web app: the service worker at /sw.js, the VAPID public key endpoint, the
// signed-in user's test push through the real push channel (the provider stand-in's /push/), and
// the renewal of a subscription the browser replaced.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { sendTestPush } from '../src/notifications/api/test-push.ts'
import { listPushSubscriptions, savePushSubscription } from '../src/users/push-subscriptions.ts'
import { SERVICE_WORKER_SCRIPT } from '../src/web/assets/service-worker-script.ts'
import { CONTENT_SECURITY_POLICY } from '../src/web/page-headers.ts'
import {
  capturePushBodies,
  decryptPush,
  PROVIDERS,
  pushKeys,
  recipient,
  type PushKeys,
  VAPID_PUBLIC_KEY,
} from './helpers/notifications.ts'
import { standIn, recordedPath } from './helpers/stand-in.ts'
import { api, createUser } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

const TEST_PATH = '/users/push-subscriptions/test'
const KEY_PATH = '/users/push-subscriptions/public-key'

/** Push through Web Push at the stand-in (on loopback, so local targets are allowed). */
const WEB_PUSH: Partial<Env> = { ...PROVIDERS, ALLOW_LOCAL_TARGETS: 'true', DEV_OUTBOX: 'false' }
const NO_PUSH: Partial<Env> = { VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '', DEV_OUTBOX: 'false' }

beforeEach(() => standIn.reset())

/** A second browser of the same user. */
async function addBrowser(userId: string) {
  const keys = await pushKeys()
  await savePushSubscription(
    createDb(env.DB),
    userId,
    { endpoint: keys.endpoint, keys },
    Date.now(),
  )
  return keys
}

describe('GET /sw.js', () => {
  it('serves the service worker as JavaScript, revalidated on every update check', async () => {
    const res = await call('/sw.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('Cache-Control')).toBe('no-cache')
    expect(res.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    const body = await res.text()
    expect(body).toBe(SERVICE_WORKER_SCRIPT)
    expect(body).toContain("self.addEventListener('push'")
    expect(body).toContain("self.addEventListener('notificationclick'")
    expect(body).toContain("self.addEventListener('pushsubscriptionchange'")
    expect(body).toContain('showNotification(')
    expect(body).toContain('openWindow(')
    // Notifications only: no fetch handler, no offline copies of pages.
    expect(body).not.toContain("addEventListener('fetch'")
    expect(body).not.toContain('caches.')
  })

  it('lets pages of the origin register workers, and nothing else new', async () => {
    expect(CONTENT_SECURITY_POLICY).toContain("worker-src 'self'")
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'")
    expect((await call('/')).headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
  })
})

describe('GET /users/push-subscriptions/public-key', () => {
  it('answers the VAPID public key to anyone, cacheable', async () => {
    const res = await api('GET', KEY_PATH, { bindings: WEB_PUSH })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ enabled: true, publicKey: VAPID_PUBLIC_KEY })
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300')
  })

  it('says enabled: false without usable VAPID keys, the local outbox included', async () => {
    for (const bindings of [
      NO_PUSH,
      { ...NO_PUSH, DEV_OUTBOX: 'true' },
      // Only one of the two keys.
      { ...WEB_PUSH, VAPID_PRIVATE_KEY: '' },
      // Both set, but not a P-256 point: a browser would refuse it as applicationServerKey.
      { ...WEB_PUSH, VAPID_PUBLIC_KEY: 'bm90LWEta2V5' },
    ]) {
      const res = await api('GET', KEY_PATH, { bindings })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ enabled: false })
    }
  })

  it('is in /openapi.json, public; the test push there with bearer security', async () => {
    const { body } = await api('GET', '/openapi.json')
    expect(body.paths[KEY_PATH].get.security).toBeUndefined()
    expect(body.paths[KEY_PATH].get.responses['200']).toBeDefined()
    expect(body.paths[TEST_PATH].post.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(body.paths[TEST_PATH].post.responses).sort()).toEqual(
      ['200', '400', '401', '429'].sort(),
    )
    expect(body.paths['/sw.js']).toBeUndefined()
  })
})

describe('POST /users/push-subscriptions/test', () => {
  it('pushes the test message to every browser of the caller through Web Push', async () => {
    const user = await recipient({ push: true })
    const second = await addBrowser(user.id)
    const { result: res, bodies } = await capturePushBodies(() =>
      api('POST', TEST_PATH, { token: user.accessToken, bindings: WEB_PUSH }),
    )
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      enabled: true,
      provider: 'web-push',
      subscriptions: 2,
      accepted: 2,
      removed: 0,
      errors: [],
      message: 'Test notification sent to 2 browsers.',
    })
    expect(res.headers.get('Cache-Control')).toBe('no-store')

    const sent = await standIn.requests('/push/')
    expect(sent.map((r) => r.path).sort()).toEqual(
      [recordedPath(user.push!.endpoint), recordedPath(second.endpoint)].sort(),
    )
    for (const request of sent) {
      expect(request.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=/)
      expect(request.headers['content-encoding']).toBe('aes128gcm')
      expect(request.headers.ttl).toBe('3600')
    }
    // Encrypted for each browser's own keys, in the shape the service worker reads.
    for (const keys of [user.push!, second]) {
      const message = (await decryptPush(bodies.get(keys.endpoint)!, keys)) as any
      expect(message).toMatchObject({ title: 'Contest Alerts test message', tag: 'test' })
      expect(message.body).toMatch(/^This is a test message from Contest Alerts/)
    }
  })

  it('reports the limit in headers and refuses a sixth test within 15 minutes', async () => {
    const user = await recipient({ push: true })
    for (let i = 1; i <= 5; i++) {
      const res = await api('POST', TEST_PATH, { token: user.accessToken, bindings: WEB_PUSH })
      expect(res.status).toBe(200)
      expect(res.headers.get('X-RateLimit-Limit')).toBe('5')
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(5 - i))
      expect(Number(res.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000)
    }
    const refused = await api('POST', TEST_PATH, { token: user.accessToken, bindings: WEB_PUSH })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await standIn.requests('/push/')).toHaveLength(5)
  })

  it('answers 400 when the caller has no subscription, 401 without a token', async () => {
    const user = await createUser()
    const none = await api('POST', TEST_PATH, { token: user.accessToken, bindings: WEB_PUSH })
    expect(none.status).toBe(400)
    expect(none.body).toEqual({
      statusCode: 400,
      message: 'No push subscription: turn push notifications on in a browser first',
      error: 'Bad Request',
    })
    const unsigned = await api('POST', TEST_PATH, { bindings: WEB_PUSH })
    expect(unsigned.status).toBe(401)
    const forged = await api('POST', TEST_PATH, { token: 'not-a-token', bindings: WEB_PUSH })
    expect(forged.status).toBe(401)
    expect(await standIn.requests('/push/')).toEqual([])
  })

  it('says enabled: false and sends nothing when push is not configured', async () => {
    const user = await recipient({ push: true })
    const res = await api('POST', TEST_PATH, { token: user.accessToken, bindings: NO_PUSH })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      enabled: false,
      provider: 'none',
      subscriptions: 1,
      accepted: 0,
      removed: 0,
      errors: [],
      message: 'Push notifications are not available on this server.',
    })
    // Push being off is the answer even to a caller with nothing to send to.
    const stranger = await createUser()
    const empty = await api('POST', TEST_PATH, { token: stranger.accessToken, bindings: NO_PUSH })
    expect(empty.status).toBe(200)
    expect(empty.body.enabled).toBe(false)
    expect(await standIn.requests('/push/')).toEqual([])
  })

  it('writes to the local outbox when DEV_OUTBOX is on without VAPID keys, and says so', async () => {
    const user = await recipient({ push: true })
    const outbox = { ...NO_PUSH, DEV_OUTBOX: 'true' }
    const res = await api('POST', TEST_PATH, { token: user.accessToken, bindings: outbox })
    expect(res.body).toMatchObject({ enabled: true, provider: 'outbox', accepted: 1 })
    expect(res.body.message).toBe(
      'Test notification sent to 1 browser (to the local outbox, DEV_OUTBOX).',
    )
    const listed = await api('GET', '/dev/outbox', { bindings: outbox })
    const mine = listed.body.messages.find((m: { to: string }) => m.to === user.push!.endpoint)
    expect(mine).toMatchObject({ channel: 'push', subject: 'Contest Alerts test message' })
    expect(await standIn.requests('/push/')).toEqual([])
  })

  it('removes a subscription the push service no longer knows, and reports a refusal', async () => {
    const user = await recipient({ push: true })
    const refusing = await addBrowser(user.id)
    const gone = await addBrowser(user.id)
    await standIn.script({
      method: 'POST',
      pathPrefix: recordedPath(gone.endpoint),
      responses: [{ status: 410 }],
    })
    await standIn.script({
      method: 'POST',
      pathPrefix: recordedPath(refusing.endpoint),
      responses: [{ status: 400, body: 'internal detail of the push service' }],
    })
    const res = await api('POST', TEST_PATH, { token: user.accessToken, bindings: WEB_PUSH })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ subscriptions: 3, accepted: 1, removed: 1 })
    expect(res.body.errors).toEqual(['Push service answered 400'])
    expect(res.body.message).toBe(
      'Test notification sent to 1 of 3 browsers. 1 subscription(s) had expired and were ' +
        'removed: turn push on again there. Not sent: Push service answered 400.',
    )
    expect(JSON.stringify(res.body)).not.toContain('internal detail')
    const left = await listPushSubscriptions(createDb(env.DB), user.id)
    expect(left.map((s) => s.endpoint).sort()).toEqual(
      [user.push!.endpoint, refusing.endpoint].sort(),
    )
  })
})

describe('sendTestPush', () => {
  it('is a plain function of (env, db, userId, now) that the web app can call', async () => {
    const user = await recipient({ push: true })
    const e = { ...env, ...WEB_PUSH } as Env
    const result = await sendTestPush(e, createDb(env.DB), user.id, Date.now())
    expect(result).toEqual({
      enabled: true,
      provider: 'web-push',
      subscriptions: 1,
      accepted: 1,
      removed: 0,
      errors: [],
    })
    const nobody = await sendTestPush(e, createDb(env.DB), '0123456789abcdef01234567', Date.now())
    expect(nobody).toMatchObject({ enabled: true, subscriptions: 0, accepted: 0 })
  })
})

describe('POST /users/push-subscriptions/renew', () => {
  const RENEW_PATH = '/users/push-subscriptions/renew'
  const body = (keys: PushKeys) => ({
    endpoint: keys.endpoint,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
  })
  const renew = (old: PushKeys, next: PushKeys, bindings: Partial<Env> = WEB_PUSH) =>
    api('POST', RENEW_PATH, { body: { old: body(old), subscription: body(next) }, bindings })
  const endpointsOf = async (userId: string) =>
    (await listPushSubscriptions(createDb(env.DB), userId)).map((s) => s.endpoint)

  it('puts the new subscription in the old one’s place, proved by the old keys, and pushes there', async () => {
    const user = await recipient({ push: true })
    const next = await pushKeys()
    const res = await renew(user.push!, next)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Push subscription renewed' })
    expect(await endpointsOf(user.id)).toEqual([next.endpoint])

    const { result, bodies } = await capturePushBodies(() =>
      api('POST', TEST_PATH, { token: user.accessToken, bindings: WEB_PUSH }),
    )
    expect(result.body).toMatchObject({ subscriptions: 1, accepted: 1 })
    expect(await decryptPush(bodies.get(next.endpoint)!, next)).toMatchObject({ tag: 'test' })
  })

  it('answers 404 and changes nothing without the old subscription’s own keys', async () => {
    const user = await recipient({ push: true })
    const stranger = await pushKeys()
    const forged = { ...stranger, endpoint: user.push!.endpoint }
    const res = await renew(forged, await pushKeys())
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Push subscription not found')
    expect(await endpointsOf(user.id)).toEqual([user.push!.endpoint])
  })

  it('refuses a new endpoint that is no known push service', async () => {
    const user = await recipient({ push: true })
    const next = { ...(await pushKeys()), endpoint: 'https://tracker.example/collect' }
    const res = await renew(user.push!, next)
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['endpoint must belong to a known push service'])
    expect(await endpointsOf(user.id)).toEqual([user.push!.endpoint])
  })

  it('keeps a subscription the browser renewed to itself', async () => {
    const user = await recipient({ push: true })
    const res = await renew(user.push!, user.push!)
    expect(res.status).toBe(200)
    expect(await endpointsOf(user.id)).toEqual([user.push!.endpoint])
  })

  it('removes the old one when the new endpoint is registered already', async () => {
    const user = await recipient({ push: true })
    const second = await addBrowser(user.id)
    const res = await renew(user.push!, second)
    expect(res.status).toBe(200)
    expect(await endpointsOf(user.id)).toEqual([second.endpoint])
  })

  it('rejects unknown keys in the body', async () => {
    const user = await recipient({ push: true })
    const res = await api('POST', RENEW_PATH, {
      body: { old: body(user.push!), subscription: body(await pushKeys()), userId: user.id },
      bindings: WEB_PUSH,
    })
    expect(res.status).toBe(400)
  })
})
