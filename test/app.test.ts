// Cross-cutting behaviour of the app: error shape, headers, CORS, request ids, OpenAPI and docs.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { settings } from '../src/env.ts'
import { isId, newId } from '../src/lib/ids.ts'
import { call, getJson } from './helpers/worker.ts'

describe('errors and headers', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    const { status, body } = await getJson('/nope')
    expect(status).toBe(404)
    expect(body).toEqual({ statusCode: 404, message: 'Cannot GET /nope', error: 'Not Found' })
  })

  it('sets secure headers and a request id on every response', async () => {
    const res = await call('/contests/health')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('X-Frame-Options')).toBe('SAMEORIGIN')
    expect(res.headers.get('Strict-Transport-Security')).toContain('max-age=')
    expect(res.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('keeps a well-formed request id sent by the caller', async () => {
    const res = await call('/contests/health', { headers: { 'X-Request-Id': 'trace-abc-123' } })
    expect(res.headers.get('X-Request-Id')).toBe('trace-abc-123')
  })

  it('answers CORS preflights for any origin without credentials', async () => {
    const res = await call('/contests/upcoming', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'Authorization',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(res.headers.get('Access-Control-Allow-Headers')).toContain('Authorization')
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull()
  })
})

describe('ids and settings', () => {
  it('makes 24-hex ids that start with the creation second', () => {
    const id = newId(Date.UTC(2026, 10, 22) + 999)
    expect(isId(id)).toBe(true)
    expect(parseInt(id.slice(0, 8), 16)).toBe(Date.UTC(2026, 10, 22) / 1000)
    expect(newId()).not.toBe(newId())
  })

  it('parses settings into real numbers and booleans', () => {
    const parsed = settings({ ...env, DEV_OUTBOX: 'false', NOTIFY_WINDOW_HOURS: '12' } as never)
    expect(parsed.DEV_OUTBOX).toBe(false)
    expect(parsed.NOTIFY_WINDOW_HOURS).toBe(12)
    expect(parsed.CONTEST_RETENTION_DAYS).toBe(90)
    expect(settings({ ...env, DEV_OUTBOX: 'true' } as never).DEV_OUTBOX).toBe(true)
  })
})

describe('API description', () => {
  it('publishes an OpenAPI 3.1 document listing every public contest endpoint', async () => {
    const { status, body } = await getJson('/openapi.json')
    expect(status).toBe(200)
    expect(body.openapi).toBe('3.1.0')
    const publicPaths = Object.keys(body.paths).filter(
      (path) => path.startsWith('/contests') && body.paths[path].get,
    )
    expect(publicPaths.sort()).toEqual(
      [
        '/contests',
        '/contests/calendar.ics',
        '/contests/difficulty/{level}',
        '/contests/finished',
        '/contests/health',
        '/contests/platform/{platform}',
        '/contests/running',
        '/contests/search',
        '/contests/stats',
        '/contests/stats/{platform}',
        '/contests/type/{type}',
        '/contests/upcoming',
        '/contests/{id}',
        '/contests/{id}/calendar.ics',
      ].sort(),
    )
    const search = body.paths['/contests/search'].get
    expect(search.parameters.map((p: { name: string }) => p.name)).toEqual(['q'])
    expect(body.components.schemas.Contest.properties).toHaveProperty('platformMetadata')
  })

  it('serves an interactive reference at /docs that loads /openapi.json', async () => {
    const res = await call('/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/html')
    expect(await res.text()).toContain('/openapi.json')
  })
})
