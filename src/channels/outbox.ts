// The local outbox: with DEV_OUTBOX=true and no provider key, messages (of every channel) are
// kept in KV for a day and listed at GET /dev/outbox, so a newcomer sees what would have been sent.
import { createRoute, z } from '@hono/zod-openapi'
import { settings } from '../env.ts'
import { newId } from '../lib/ids.ts'
import { errorResponse, json } from '../lib/openapi.ts'
import { toIso } from '../lib/time.ts'
import { renderNotFound } from '../http/errors.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

import { createRouter } from '../http/router.ts'

const PREFIX = 'dev-outbox:'
const TTL_SECONDS = 24 * 60 * 60
const LIST_LIMIT = 50
// Keys sort ascending, so an inverted time puts the newest message first.
const TIME_CEILING = 10 ** 15

export interface OutboxMessage {
  /** Which channel would have carried it; email when absent. */
  channel?: string
  from: string
  to: string | string[]
  subject: string
  html?: string
  text?: string
  replyTo?: string
  [extra: string]: unknown
}

export async function writeOutbox(kv: KeyValueStore, message: OutboxMessage, now: number) {
  const id = newId(now)
  const key = `${PREFIX}${String(TIME_CEILING - now).padStart(16, '0')}:${id}`
  await kv.put(key, JSON.stringify({ id, createdAt: toIso(now), ...message }), {
    expirationTtl: TTL_SECONDS,
  })
  return id
}

export async function readOutbox(kv: KeyValueStore, limit = LIST_LIMIT) {
  const { keys } = await kv.list({ prefix: PREFIX, limit })
  const values = await Promise.all(keys.map((k) => kv.get<Record<string, unknown>>(k.name, 'json')))
  return values.filter((v): v is Record<string, unknown> => v !== null)
}

const OutboxSchema = z
  .object({ messages: z.array(z.record(z.string(), z.unknown())) })
  .openapi('DevOutbox')

const listOutbox = createRoute({
  method: 'get',
  path: '/outbox',
  tags: ['Development'],
  summary: 'Messages the local outbox recorded, newest first (only when DEV_OUTBOX=true)',
  responses: {
    200: json(OutboxSchema, 'Recorded messages'),
    404: errorResponse('The outbox is off'),
  },
})

export const outboxRoutes = createRouter().openapi(listOutbox, async (c) => {
  // Outside local runs the route does not exist, as far as any caller can tell.
  if (!settings(c.env).DEV_OUTBOX) return renderNotFound(c) as never
  c.header('Cache-Control', 'no-store')
  return c.json({ messages: await readOutbox(c.env.KV) }, 200)
})
