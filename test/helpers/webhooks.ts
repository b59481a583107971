// Webhook test helpers: receivers on the stand-in, a queue binding that holds what the app sends,
// and a drain that hands those messages to the Worker's own queue() entry.
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import type { Env } from '../../src/env.ts'
import { FINISHED_WATERMARK_KEY } from '../../src/webhooks/detection.ts'
import type { WebhookMessage } from '../../src/webhooks/emit.ts'
import { runQueue } from './queue.ts'
import { standIn, standInUrl } from './stand-in.ts'
import { api, rememberSecret, type TestUser } from './users.ts'

// The longest delay Queues accept.
const HOLD_SECONDS = 43_200

/**
 * The real WEBHOOKS_QUEUE, with every message recorded and held back 12 hours. Miniflare would
 * otherwise hand each message to the Worker's queue() in the background, with the base settings
 * (no local targets) and at a moment of its choosing; the tests hand them over themselves.
 */
export function holdingQueue() {
  const sent: WebhookMessage[] = []
  const queue = {
    async send(body: WebhookMessage) {
      sent.push(body)
      await env.WEBHOOKS_QUEUE.send(body, { delaySeconds: HOLD_SECONDS })
    },
    async sendBatch(messages: Iterable<MessageSendRequest<WebhookMessage>>) {
      const list = [...messages]
      sent.push(...list.map((m) => m.body))
      await env.WEBHOOKS_QUEUE.sendBatch(list.map((m) => ({ ...m, delaySeconds: HOLD_SECONDS })))
    },
  } as unknown as Queue
  /** The messages sent since the last call. */
  const take = () => sent.splice(0, sent.length)
  return { queue, sent, take }
}

export type HoldingQueue = ReturnType<typeof holdingQueue>

/** Bindings for a test that delivers to the stand-in on http://127.0.0.1 (a local run). */
export function localRun(held: HoldingQueue): Partial<Env> {
  return { ALLOW_LOCAL_TARGETS: 'true', WEBHOOKS_QUEUE: held.queue }
}

/** Bindings of a deployment: only public https targets. */
export function deployed(held: HoldingQueue): Partial<Env> {
  return { ALLOW_LOCAL_TARGETS: 'false', WEBHOOKS_QUEUE: held.queue }
}

let seq = 0

/** A fresh receiver path on the stand-in, answering `statuses` in turn (the last repeats). */
export async function receiver(statuses: number[] = [200]) {
  const path = `/hooks/r${++seq}-${crypto.randomUUID().slice(0, 8)}`
  await standIn.script({ pathPrefix: path, responses: statuses.map((status) => ({ status })) })
  return { path, url: `${standInUrl}${path}`, requests: () => standIn.requests(path) }
}

/** Creates an endpoint through the API; its secret is remembered so no later answer may show it. */
export async function createWebhook(
  admin: TestUser,
  body: Record<string, unknown>,
  bindings: Partial<Env>,
) {
  const res = await api('POST', '/webhooks', { token: admin.accessToken, body, bindings })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  rememberSecret(res.body.secret)
  return res.body as { id: string; secret: string } & Record<string, any>
}

/** Delivers everything `held` has been sent since the last drain. */
export function drain(held: HoldingQueue, bindings: Partial<Env>) {
  return runQueue(held.take(), bindings)
}

/** Forgets every endpoint (and by cascade every delivery) and the finished-contest watermark. */
export async function clearWebhooks() {
  await env.DB.prepare('DELETE FROM webhook_endpoints').run()
  await env.KV.delete(FINISHED_WATERMARK_KEY)
}

/** Standard Webhooks headers of a recorded request, as a receiver hands them to a verifier. */
export function signatureHeaders(headers: Record<string, string>) {
  return {
    'webhook-id': headers['webhook-id'],
    'webhook-timestamp': headers['webhook-timestamp'],
    'webhook-signature': headers['webhook-signature'],
  }
}
