// Public catalogue caching: Cache API hits without D1, ETag revalidation, versioned invalidation.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { bumpCatalogueVersion } from '../src/contests/catalogue-version.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { call, countingD1 } from './helpers/worker.ts'

beforeEach(clearContests)

describe('cached public reads', () => {
  it('serves a repeated /contests/upcoming from the cache with zero D1 queries', async () => {
    await addContests([contest(1, { name: 'Cached Round' })])
    const first = countingD1(env.DB)
    const miss = await call('/contests/upcoming', {}, { DB: first.d1 })
    expect(miss.headers.get('X-Cache')).toBe('MISS')
    expect(first.counter.statements).toBeGreaterThan(0)

    const second = countingD1(env.DB)
    const hit = await call('/contests/upcoming', {}, { DB: second.d1 })
    expect(hit.status).toBe(200)
    expect(hit.headers.get('X-Cache')).toBe('HIT')
    expect(second.counter.statements).toBe(0)
    expect(await hit.json()).toEqual(await miss.json())
  })

  it('keeps an answer read twice in the isolate, where one-off searches do not push it out', async () => {
    await addContests([contest(1, { name: 'Hot Round' })])
    await call('/contests/upcoming?platform=codeforces')
    // The second read comes from the Cache API and enters memory; from then on no Cache API call.
    expect((await call('/contests/upcoming?platform=codeforces')).headers.get('X-Cache')).toBe(
      'HIT',
    )
    const opened = vi.spyOn(caches, 'open')
    try {
      const hot = await call('/contests/upcoming?platform=codeforces')
      expect(hot.headers.get('X-Cache')).toBe('HIT')
      expect(opened).not.toHaveBeenCalled()
      // More one-off searches than memory holds answers (from their own addresses, so no limit
      // is spent): answered from the search's own index, none kept among the answers.
      for (let i = 0; i < 70; i++) {
        const headers = { 'CF-Connecting-IP': `10.8.0.${i}` }
        expect((await call(`/contests/search?q=round${i}`, { headers })).status).toBe(200)
      }
      opened.mockClear()
      const still = await call('/contests/upcoming?platform=codeforces')
      expect(still.headers.get('X-Cache')).toBe('HIT')
      expect(await still.json()).toEqual([expect.objectContaining({ name: 'Hot Round' })])
      expect(opened).not.toHaveBeenCalled()
    } finally {
      opened.mockRestore()
    }
  })

  it('shows a catalogue write on the very next read', async () => {
    await addContests([contest(1, { name: 'First' })])
    const before = await call('/contests/upcoming')
    expect((await before.json<{ name: string }[]>()).map((c) => c.name)).toEqual(['First'])

    await addContests([contest(2, { name: 'Second' })])
    const after = await call('/contests/upcoming')
    expect(after.headers.get('X-Cache')).toBe('MISS')
    expect((await after.json<{ name: string }[]>()).map((c) => c.name)).toEqual(['First', 'Second'])
  })

  it('keys the cache by the query string, whatever the parameter order', async () => {
    await addContests([
      contest(1, { name: 'CF' }),
      contest(2, { name: 'LC', platform: 'leetcode', type: 'WEEKLY' }),
    ])
    const lc = await call('/contests?platform=leetcode&limit=5')
    const cf = await call('/contests?platform=codeforces&limit=5')
    expect((await lc.json<any>()).data[0].name).toBe('LC')
    expect((await cf.json<any>()).data[0].name).toBe('CF')
    const reordered = await call('/contests?limit=5&platform=leetcode')
    expect(reordered.headers.get('X-Cache')).toBe('HIT')
  })

  it('sends Cache-Control with s-maxage and an ETag, and answers If-None-Match with 304', async () => {
    await addContests([contest(1)])
    const res = await call('/contests/upcoming')
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=60, s-maxage=60')
    const etag = res.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)

    const revalidated = await call('/contests/upcoming', { headers: { 'If-None-Match': etag! } })
    expect(revalidated.status).toBe(304)
    expect(await revalidated.text()).toBe('')

    await bumpCatalogueVersion(env.KV)
    const changed = await call('/contests/upcoming', { headers: { 'If-None-Match': '"stale"' } })
    expect(changed.status).toBe(200)
  })

  it('hands the gzip twin of a hot answer to a client that asks for gzip, compressed once', async () => {
    await addContests(Array.from({ length: 12 }, (_, i) => contest(i + 1, { name: `Round ${i}` })))
    for (const path of ['/contests/upcoming', '/']) {
      const miss = await call(path)
      expect(miss.headers.get('Vary')).toBe('Accept-Encoding')
      const plain = await miss.arrayBuffer()
      expect(plain.byteLength).toBeGreaterThan(1024)
      // The second read takes the answer from the Cache API into memory, gzipping it there.
      const global = globalThis as unknown as { CompressionStream: typeof CompressionStream }
      const Real = global.CompressionStream
      let compressions = 0
      global.CompressionStream = class extends Real {
        constructor(format: ConstructorParameters<typeof Real>[0]) {
          super(format)
          compressions++
        }
      }
      try {
        expect((await call(path)).headers.get('X-Cache')).toBe('HIT')
        const asked = { headers: { 'Accept-Encoding': 'gzip, deflate, br' } }
        const zipped = [await call(path, asked), await call(path, asked)]
        expect(compressions).toBe(1)
        for (const res of zipped) {
          expect(res.headers.get('Content-Encoding')).toBe('gzip')
          expect(res.headers.get('Vary')).toBe('Accept-Encoding')
          expect(res.headers.get('ETag')).toBe(miss.headers.get('ETag')!.replace(/"$/, '-gzip"'))
          const unzipped = res.body!.pipeThrough(new DecompressionStream('gzip'))
          expect(new Uint8Array(await new Response(unzipped).arrayBuffer())).toEqual(
            new Uint8Array(plain),
          )
        }
      } finally {
        global.CompressionStream = Real
      }
      // The twin revalidates against its own ETag; the plain answer does not take the twin's.
      const etag = (await call(path, { headers: { 'Accept-Encoding': 'gzip' } })).headers.get(
        'ETag',
      )
      const revalidated = await call(path, {
        headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag! },
      })
      expect(revalidated.status).toBe(304)
      expect(revalidated.headers.get('Vary')).toBe('Accept-Encoding')
      expect((await call(path, { headers: { 'If-None-Match': etag! } })).status).toBe(200)
      // The plain answer a miss gave holds the same content: still good for a client taking gzip.
      const plainHeld = await call(path, {
        headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': miss.headers.get('ETag')! },
      })
      expect(plainHeld.status).toBe(304)
      expect(plainHeld.headers.get('ETag')).toBe(miss.headers.get('ETag'))
      // A client that refuses gzip gets the bytes as they are.
      const refused = await call(path, { headers: { 'Accept-Encoding': 'gzip;q=0, identity' } })
      expect(refused.headers.get('Content-Encoding')).toBeNull()
      expect(new Uint8Array(await refused.arrayBuffer())).toEqual(new Uint8Array(plain))
    }
  })

  it('leaves a small answer uncompressed', async () => {
    await call('/contests/upcoming')
    const asked = { headers: { 'Accept-Encoding': 'gzip' } }
    await call('/contests/upcoming', asked)
    const hot = await call('/contests/upcoming', asked)
    expect(hot.headers.get('X-Cache')).toBe('HIT')
    expect(hot.headers.get('Content-Encoding')).toBeNull()
    expect(hot.headers.get('Vary')).toBeNull()
    expect(await hot.json()).toEqual([])
  })

  it('on Workers, reads what the client accepts from cf, not from the header the runtime set', async () => {
    await addContests(Array.from({ length: 12 }, (_, i) => contest(i + 1, { name: `Round ${i}` })))
    await call('/contests/upcoming')
    await call('/contests/upcoming')
    const asking = (cf: IncomingRequestCfProperties | Record<string, never>) =>
      call('/contests/upcoming', { headers: { 'Accept-Encoding': 'br, gzip' }, cf })
    // A client that sent no Accept-Encoding: the runtime's header alone, nothing in cf.
    expect((await asking({})).headers.get('Content-Encoding')).toBeNull()
    const browser = {
      clientAcceptEncoding: 'gzip, deflate, br, zstd',
    } as IncomingRequestCfProperties
    expect((await asking(browser)).headers.get('Content-Encoding')).toBe('gzip')
  })

  it('does not cache errors or the health check', async () => {
    const bad = await call('/contests/upcoming?platform=nope')
    expect(bad.status).toBe(400)
    expect(bad.headers.get('X-Cache')).toBeNull()
    const health = await call('/contests/health')
    expect(health.headers.get('Cache-Control')).toBe('no-store')
    expect(health.headers.get('ETag')).toBeNull()
  })

  it('gives each cached response the request id of the request it answers', async () => {
    await call('/contests/upcoming')
    const a = await call('/contests/upcoming')
    const b = await call('/contests/upcoming')
    expect(a.headers.get('X-Cache')).toBe('HIT')
    expect(a.headers.get('X-Request-Id')).toBeTruthy()
    expect(a.headers.get('X-Request-Id')).not.toBe(b.headers.get('X-Request-Id'))
  })
})
