// The app on a runtime without Workers' execution context: deferred work (cache writes, KV
// counters) is awaited instead of handed to waitUntil, so nothing fails and nothing is lost.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app.ts'
import { socketClientAddress } from '../src/http/client-address.ts'
import { addContests, contest } from './helpers/contests.ts'

describe('an app without an execution context', () => {
  const app = createApp({ clientAddress: socketClientAddress(() => '198.51.100.7') })

  it('answers a cached catalogue read and stores it for the next one', async () => {
    await addContests([contest(5)])
    // No third argument: Hono's executionCtx getter throws, as on a runtime other than Workers.
    const first = await app.fetch(new Request('https://api.test/contests/upcoming?limit=7'), env)
    expect(first.status).toBe(200)
    expect(first.headers.get('X-Cache')).toBe('MISS')
    const second = await app.fetch(new Request('https://api.test/contests/upcoming?limit=7'), env)
    expect(second.status).toBe(200)
    expect(second.headers.get('X-Cache')).toBe('HIT')
  })

  it('counts an anonymous caller in the KV window without waitUntil', async () => {
    const res = await app.fetch(new Request('https://api.test/users/profile'), env)
    expect(res.status).toBe(401)
    expect(res.headers.get('X-RateLimit-Limit')).toBe('100')
  })
})
