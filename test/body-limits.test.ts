// Body limits on every route: one byte over a route's limit is 413 in the error shape (the contact
// form in its own), whether the body declares its length or streams it, and a refused streamed
// body is read to its end so the connection it came on stays usable.
import { describe, expect, it } from 'vitest'
import { CONTACT_BODY_LIMIT } from '../src/admin/contact-routes.ts'
import { createApp } from '../src/app.ts'
import { bodyLimitOf, DRAIN_LIMIT } from '../src/http/body-limit.ts'
import { cloudflareClientAddress } from '../src/http/client-address.ts'
import { nextIp } from './helpers/users.ts'
import { BASE, call, getJson } from './helpers/worker.ts'

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const JSON_TYPE = 'application/json'
const FORM_TYPE = 'application/x-www-form-urlencoded'
const CHUNK = 64 * 1024

interface BodyRoute {
  method: string
  /** Hono's pattern (`:id`), as app.routes names it. */
  pattern: string
  contentType: string
}

/** A path of the pattern; the value never spells a literal segment, so the limit is the route's. */
const concrete = (pattern: string) => pattern.replace(/:\w+(\{[^}]*\})?/g, 'p-1')

/**
 * Every route a body can be sent to: each operation of /openapi.json but its GETs, and the web
 * app's forms (kept out of the document), found in the app's own route table.
 */
async function bodyRoutes(): Promise<BodyRoute[]> {
  const { body: doc } = await getJson('/openapi.json')
  const routes = new Map<string, BodyRoute>()
  for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!BODY_METHODS.has(method.toUpperCase())) continue
      const pattern = path.replace(/\{(\w+)\}/g, ':$1')
      const types = Object.keys(operation.requestBody?.content ?? {})
      const route = { method: method.toUpperCase(), pattern, contentType: types[0] ?? JSON_TYPE }
      routes.set(`${route.method} ${pattern}`, route)
    }
  }
  const app = createApp({ clientAddress: cloudflareClientAddress })
  for (const { method, path } of app.routes) {
    if (!BODY_METHODS.has(method) || !path.startsWith('/app/')) continue
    routes.set(`${method} ${path}`, { method, pattern: path, contentType: FORM_TYPE })
  }
  return [...routes.values()]
}

/** `size` bytes of the route's content type (the contents never matter: nothing parses them). */
function bodyOf(contentType: string, size: number): Uint8Array {
  const [head, tail] = contentType === FORM_TYPE ? ['x=', ''] : ['{"x":"', '"}']
  const text = head + 'a'.repeat(size - head.length - tail.length) + tail
  return new TextEncoder().encode(text)
}

/** A body in CHUNK-sized pieces with no length declared; `pulled` counts what was read of it. */
function streamed(bytes: Uint8Array) {
  const seen = { pulled: 0, cancelled: false }
  let at = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      const chunk = bytes.slice(at, at + CHUNK)
      at += chunk.length
      seen.pulled += chunk.length
      controller.enqueue(chunk)
    },
    cancel() {
      seen.cancelled = true
    },
  })
  return { stream, seen }
}

/** A fresh client address per request, so no rate limit ever answers before the body limit. */
function send(route: BodyRoute, body: BodyInit, length?: number) {
  const headers: Record<string, string> = {
    'Content-Type': route.contentType,
    'CF-Connecting-IP': nextIp(),
  }
  if (length !== undefined) headers['Content-Length'] = String(length)
  const path = concrete(route.pattern)
  return call(path, new Request(`${BASE}${path}`, { method: route.method, headers, body }))
}

/** The limit a route's body must stay within, and the answer one byte more gets. */
function expectationOf(route: BodyRoute) {
  const limit = bodyLimitOf(route.method, concrete(route.pattern))
  if (limit === 'own') {
    return {
      limit: CONTACT_BODY_LIMIT,
      body: { success: false, message: 'Message is too large.' },
    }
  }
  return {
    limit,
    body: {
      statusCode: 413,
      message: `Request body must not be larger than ${limit} bytes`,
      error: 'Payload Too Large',
    },
  }
}

describe('body limits', () => {
  it('finds every route the app takes a body on, the documented ones and the web forms', async () => {
    const routes = await bodyRoutes()
    const found = new Set(routes.map((r) => `${r.method} ${r.pattern}`))
    const app = createApp({ clientAddress: cloudflareClientAddress })
    const registered = app.routes
      .filter((r) => BODY_METHODS.has(r.method))
      .map((r) => `${r.method} ${r.path}`)
    expect([...new Set(registered)].filter((r) => !found.has(r))).toEqual([])
    for (const known of ['POST /auth/signup', 'POST /contests/bulk', 'POST /app/signin']) {
      expect(found).toContain(known)
    }
  })

  it('refuses one byte over the limit with 413 on every route, declared or streamed', async () => {
    const routes = await bodyRoutes()
    const wrong: string[] = []
    for (const route of routes) {
      const expected = expectationOf(route)
      const bytes = bodyOf(route.contentType, expected.limit + 1)
      const declared = await send(route, bytes, bytes.length)
      const { stream, seen } = streamed(bytes)
      const chunked = await send(route, stream)
      for (const [how, res] of [
        ['declared', declared],
        ['streamed', chunked],
      ] as const) {
        const body = await res.json().catch(() => undefined)
        if (res.status !== 413 || JSON.stringify(body) !== JSON.stringify(expected.body)) {
          wrong.push(
            `${route.method} ${route.pattern} (${how}): ${res.status} ${JSON.stringify(body)}`,
          )
        }
      }
      if (seen.pulled !== bytes.length) {
        wrong.push(`${route.method} ${route.pattern}: ${seen.pulled} of ${bytes.length} read`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('reads a refused body to its end, and cancels one past the drain limit', async () => {
    const route = { method: 'POST', pattern: '/auth/signup', contentType: JSON_TYPE }
    const megabyte = streamed(bodyOf(JSON_TYPE, 1024 * 1024))
    expect((await send(route, megabyte.stream)).status).toBe(413)
    expect(megabyte.seen).toEqual({ pulled: 1024 * 1024, cancelled: false })

    const overlong = streamed(bodyOf(JSON_TYPE, DRAIN_LIMIT + 4 * CHUNK))
    expect((await send(route, overlong.stream)).status).toBe(413)
    expect(overlong.seen.cancelled).toBe(true)
    expect(overlong.seen.pulled).toBeLessThan(DRAIN_LIMIT + 4 * CHUNK)
  })
})
