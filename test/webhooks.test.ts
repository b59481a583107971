// Webhook endpoint management: admin-only CRUD, secrets shown once and stored encrypted, event
// and target validation (SSRF refused at creation), deliveries list and test events.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { standIn } from './helpers/stand-in.ts'
import { api, createAdmin, createUser, rememberSecret, type TestUser } from './helpers/users.ts'
import {
  clearWebhooks,
  createWebhook,
  deployed,
  drain,
  holdingQueue,
  localRun,
  receiver,
  signatureHeaders,
  type HoldingQueue,
} from './helpers/webhooks.ts'
import { WEBHOOK_EVENTS } from '../src/webhooks/events.ts'
import { fromBase64 } from '../src/webhooks/base64.ts'

let admin: TestUser
let held: HoldingQueue

const ALL_EVENTS = [...WEBHOOK_EVENTS]

beforeAll(async () => {
  admin = await createAdmin()
})

beforeEach(async () => {
  await clearWebhooks()
  await standIn.reset()
  held = holdingQueue()
})

const adminCall = (method: string, path: string, body?: unknown) =>
  api(method, path, { token: admin.accessToken, body, bindings: deployed(held) })

const publicHook = { url: 'https://hooks.example.com/contests', events: ['contest.created'] }

describe('creating an endpoint', () => {
  it('answers 201 with a whsec_ secret of at least 24 random bytes', async () => {
    const res = await adminCall('POST', '/webhooks', { ...publicHook, description: 'CI bot' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      url: publicHook.url,
      events: ['contest.created'],
      description: 'CI bot',
      enabled: true,
    })
    expect(res.body.id).toMatch(/^[0-9a-f]{24}$/)
    const secret: string = res.body.secret
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
    expect(fromBase64(secret.slice('whsec_'.length))!.length).toBeGreaterThanOrEqual(24)
  })

  it('never shows the secret again, in the endpoint, the list or a rotation', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    const one = await adminCall('GET', `/webhooks/${made.id}`)
    expect(one.status).toBe(200)
    expect(one.body).not.toHaveProperty('secret')
    const list = await adminCall('GET', '/webhooks')
    expect(list.body.map((w: { id: string }) => w.id)).toContain(made.id)
    expect(list.body.every((w: object) => !('secret' in w))).toBe(true)
    // api() fails the test if any answer carries a remembered secret, the old one included.
    const rotated = await adminCall('POST', `/webhooks/${made.id}/rotate-secret`)
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(made.secret)
    rememberSecret(rotated.body.secret)
    await adminCall('GET', `/webhooks/${made.id}`)
  })

  it('stores the secret encrypted, never in clear', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    const row = await env.DB.prepare(
      'SELECT secret_ciphertext AS c FROM webhook_endpoints WHERE id = ?',
    )
      .bind(made.id)
      .first<{ c: string }>()
    expect(row!.c).toMatch(/^v1\.[\w-]+\.[\w-]+$/)
    expect(row!.c).not.toContain(made.secret.slice('whsec_'.length))
    rememberSecret(row!.c)
    await adminCall('GET', '/webhooks')
  })

  it('refuses an event outside the enumeration, naming the allowed values', async () => {
    const res = await adminCall('POST', '/webhooks', {
      url: publicHook.url,
      events: ['contest.created', 'contest.deleted'],
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'each value in events must be one of the following values: contest.created, ' +
        'contest.starting, contest.finished, notification.sent, platform.degraded, ' +
        'platform.recovered, contest.results_published, service.degraded, service.recovered',
    ])
  })

  it('refuses an empty event list and unknown body keys', async () => {
    const res = await adminCall('POST', '/webhooks', { ...publicHook, events: [], secret: 'mine' })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(
      expect.arrayContaining(['events should not be empty', 'property secret should not exist']),
    )
  })

  it('stores each subscribed event once', async () => {
    const events = ['contest.finished', 'contest.created', 'contest.finished']
    const made = await createWebhook(admin, { ...publicHook, events }, deployed(held))
    expect(made.events).toEqual(['contest.finished', 'contest.created'])
  })

  it('answers 401 without a token and 403 to a user who is not an admin', async () => {
    const user = await createUser()
    const anonymous = await api('POST', '/webhooks', { body: publicHook })
    expect(anonymous.status).toBe(401)
    const forbidden = await api('GET', '/webhooks', { token: user.accessToken })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.message).toBe('Forbidden resource')
  })
})

describe('targets refused at creation (SSRF)', () => {
  const privateTargets = [
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://0x7f.1/hook',
    'https://localhost/hook',
    'https://metadata.google.internal/hook',
  ]

  it.each(privateTargets)('refuses %s as a private, loopback or link-local target', async (url) => {
    const res = await adminCall('POST', '/webhooks', { url, events: ALL_EVENTS })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual([
      'url must not point to a private, loopback or link-local address',
    ])
  })

  it('refuses http:// even to a public host', async () => {
    const res = await adminCall('POST', '/webhooks', {
      url: 'http://hooks.example.com/x',
      events: ALL_EVENTS,
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['url must use https'])
  })

  it('refuses credentials in the URL and text that is not a URL', async () => {
    const withUser = await adminCall('POST', '/webhooks', {
      url: 'https://user:pw@hooks.example.com/x',
      events: ALL_EVENTS,
    })
    expect(withUser.body.message).toEqual(['url must not contain credentials'])
    const notUrl = await adminCall('POST', '/webhooks', { url: 'hooks', events: ALL_EVENTS })
    expect(notUrl.status).toBe(400)
    expect(notUrl.body.message).toEqual(['url must be a URL address'])
  })

  it('accepts a loopback http receiver only when local runs allow it', async () => {
    const res = await api('POST', '/webhooks', {
      token: admin.accessToken,
      body: { url: 'http://127.0.0.1:8788/hooks/dev', events: ALL_EVENTS },
      bindings: localRun(held),
    })
    expect(res.status).toBe(201)
    rememberSecret(res.body.secret)
  })
})

describe('changing and deleting an endpoint', () => {
  it('changes events and description, and clears the description with null', async () => {
    const made = await createWebhook(admin, { ...publicHook, description: 'x' }, deployed(held))
    const res = await adminCall('PATCH', `/webhooks/${made.id}`, {
      events: ['notification.sent'],
      description: null,
    })
    expect(res.status).toBe(200)
    expect(res.body.events).toEqual(['notification.sent'])
    expect(res.body).not.toHaveProperty('description')
  })

  it('disables on request and re-enables without the reason', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    const off = await adminCall('PATCH', `/webhooks/${made.id}`, { enabled: false })
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'Disabled by an admin' })
    const on = await adminCall('PATCH', `/webhooks/${made.id}`, { enabled: true })
    expect(on.body.enabled).toBe(true)
    expect(on.body).not.toHaveProperty('disabledReason')
  })

  it('refuses a url change, an empty patch and an unknown id', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    const url = await adminCall('PATCH', `/webhooks/${made.id}`, { url: 'https://x.example.com' })
    expect(url.body.message).toEqual(['property url should not exist'])
    const empty = await adminCall('PATCH', `/webhooks/${made.id}`, {})
    expect(empty.body.message).toEqual(['At least one field must be given'])
    const missing = await adminCall('PATCH', '/webhooks/0123456789abcdef01234567', {
      enabled: true,
    })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('Webhook endpoint with ID 0123456789abcdef01234567 not found')
  })

  it('deletes an endpoint, after which it is not found', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    const res = await adminCall('DELETE', `/webhooks/${made.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Webhook endpoint deleted successfully' })
    expect((await adminCall('GET', `/webhooks/${made.id}`)).status).toBe(404)
    expect((await adminCall('DELETE', `/webhooks/${made.id}`)).status).toBe(404)
  })

  it('answers 400 for an id that is not 24 hex characters', async () => {
    const res = await adminCall('GET', '/webhooks/nope')
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['Invalid webhook ID format'])
  })
})

describe('test events and the deliveries list', () => {
  it('queues a webhook.test event that arrives signed like any other', async () => {
    const hook = await receiver()
    const made = await createWebhook(
      admin,
      { url: hook.url, events: ['contest.created'] },
      localRun(held),
    )
    const res = await api('POST', `/webhooks/${made.id}/test`, {
      token: admin.accessToken,
      bindings: localRun(held),
    })
    expect(res.status).toBe(202)
    expect(res.body).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 })
    await drain(held, localRun(held))
    const [request] = await hook.requests()
    const payload = new Webhook(made.secret).verify(request.body, signatureHeaders(request.headers))
    expect(payload).toMatchObject({ id: res.body.eventId, type: 'webhook.test' })
    expect((payload as { data: object }).data).toEqual({
      endpointId: made.id,
      message: 'A test event from the Contest Alert Service',
    })
  })

  it('refuses a test event to a disabled endpoint', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    await adminCall('PATCH', `/webhooks/${made.id}`, { enabled: false })
    const res = await adminCall('POST', `/webhooks/${made.id}/test`)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Webhook endpoint is disabled; enable it first')
    expect(held.sent).toEqual([])
  })

  it('lists deliveries newest first, a page at a time, with the outcome of each', async () => {
    const hook = await receiver([200])
    const made = await createWebhook(admin, { url: hook.url, events: ALL_EVENTS }, localRun(held))
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await api('POST', `/webhooks/${made.id}/test`, {
        token: admin.accessToken,
        bindings: localRun(held),
      })
      ids.push(res.body.id)
    }
    await drain(held, localRun(held))
    const page = await adminCall('GET', `/webhooks/${made.id}/deliveries?limit=2`)
    expect(page.status).toBe(200)
    expect(page.body.pagination).toEqual({
      total: 3,
      limit: 2,
      offset: 0,
      hasNext: true,
      hasPrev: false,
    })
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]])
    expect(page.body.data[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastResponseStatus: 200,
      eventType: 'webhook.test',
    })
    expect(page.body.data[0].deliveredAt).toMatch(/Z$/)
    const rest = await adminCall('GET', `/webhooks/${made.id}/deliveries?limit=2&offset=2`)
    expect(rest.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]])
    expect(rest.body.pagination).toMatchObject({ hasNext: false, hasPrev: true })
  })

  it('filters deliveries by status and refuses an unknown one', async () => {
    const made = await createWebhook(admin, publicHook, deployed(held))
    await adminCall('POST', `/webhooks/${made.id}/test`)
    const pending = await adminCall('GET', `/webhooks/${made.id}/deliveries?status=pending`)
    expect(pending.body.data).toHaveLength(1)
    const none = await adminCall('GET', `/webhooks/${made.id}/deliveries?status=succeeded`)
    expect(none.body.data).toEqual([])
    const bad = await adminCall('GET', `/webhooks/${made.id}/deliveries?status=lost`)
    expect(bad.body.message).toEqual([
      'status must be one of the following values: pending, retrying, succeeded, failed',
    ])
  })

  it('answers 404 for the deliveries of an unknown endpoint', async () => {
    const res = await adminCall('GET', '/webhooks/0123456789abcdef01234567/deliveries')
    expect(res.status).toBe(404)
  })
})

describe('the OpenAPI document', () => {
  it('describes every webhook route', async () => {
    const res = await api('GET', '/openapi.json')
    const paths = Object.keys(res.body.paths)
    expect(paths).toEqual(
      expect.arrayContaining([
        '/webhooks',
        '/webhooks/{id}',
        '/webhooks/{id}/rotate-secret',
        '/webhooks/{id}/deliveries',
        '/webhooks/{id}/test',
      ]),
    )
  })
})
