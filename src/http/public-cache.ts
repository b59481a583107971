// Caching of public catalogue reads: Cache-Control for the CDN and browsers, an ETag answered
// with 304, and the Cache API keyed by the catalogue version so a write is seen on the next read.
// In front of the Cache API each isolate keeps its most read answers in memory, so a hot read
// costs no Cache API call at all. An answer enters memory on its second read (from the Cache API),
// so a stream of one-off searches never pushes the catalogue's hot answers out. An answer in
// memory also keeps its gzip twin, for the clients that ask for it (gzip-variant.ts).
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { defer } from './defer.ts'
import { acceptsGzip, gzip, gzipEtag, gzipResponse, worthGzip } from './gzip-variant.ts'

const CACHE_NAME = 'public-catalogue'

// A handful of answers, bounded in count and bytes: an isolate has 128 MB for everything.
const HOT_ENTRIES = 64
const HOT_BYTES = 8 * 1024 * 1024
const HOT_ENTRY_BYTES = 1024 * 1024

interface HotEntry {
  body: ArrayBuffer
  /** The same body gzipped, when its type and size make that worth it. */
  gzip?: ArrayBuffer
  headers: [string, string][]
  storedAt: number
}

const bytesOf = (entry: HotEntry) => entry.body.byteLength + (entry.gzip?.byteLength ?? 0)

const hot = new Map<string, HotEntry>()
let hotBytes = 0

function forget(key: string) {
  const entry = hot.get(key)
  if (!entry) return
  hot.delete(key)
  hotBytes -= bytesOf(entry)
}

/** Keeps an answer in memory, the least recently read ones making room. */
function keepHot(key: string, entry: HotEntry) {
  forget(key)
  while (hot.size >= HOT_ENTRIES || hotBytes + bytesOf(entry) > HOT_BYTES) {
    forget(hot.keys().next().value!)
  }
  hot.set(key, entry)
  hotBytes += bytesOf(entry)
}

/** An answer held in memory and still fresh, marked most recently read. */
function hotHit(key: string, maxAgeMs: number, now: number): HotEntry | undefined {
  const entry = hot.get(key)
  if (!entry) return undefined
  forget(key)
  if (now - entry.storedAt > maxAgeMs) return undefined
  hot.set(key, entry)
  hotBytes += bytesOf(entry)
  return entry
}

function cacheKey(url: URL, version: string): string {
  const params = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const query = new URLSearchParams(params).toString()
  return `https://cache.internal/${version}${url.pathname}${query ? `?${query}` : ''}`
}

async function etagOf(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body))
  const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')
  return `"${hex}"`
}

/**
 * A 304 when the client holds the representation `answer` describes (its ETag and Vary), or the
 * one of the same content whose ETag is `sameContent`.
 */
function notModified(
  request: Request,
  answer: Headers,
  cacheControl: string,
  sameContent?: string,
) {
  const held = request.headers.get('If-None-Match')
  const etag = [answer.get('ETag'), sameContent].find((e) => e && e === held)
  if (!etag) return undefined
  const headers = new Headers({ ETag: etag, 'Cache-Control': cacheControl })
  const vary = answer.get('Vary')
  if (vary) headers.set('Vary', vary)
  return new Response(null, { status: 304, headers })
}

/** The current version of what is cached; a new version makes every older entry unreachable. */
export type VersionOf = (c: Context<AppEnv>) => Promise<string>

/**
 * `versionOf` is the caller's (the catalogue passes its version in KV), so this middleware knows
 * nothing of contests. `maxAgeSeconds` bounds how stale a response may be anywhere: in the Cache API (checked against
 * the stored Date as well as expired by the cache), at the CDN (s-maxage) and in browsers.
 * With `store: false` the answer gets the same headers, ETag and 304 but never goes through the
 * Cache API: for a route that answers from memory faster than the Cache API could.
 */
export function publicCache(
  maxAgeSeconds: number,
  versionOf: VersionOf,
  { store = true } = {},
): MiddlewareHandler<AppEnv> {
  const cacheControl = `public, max-age=${maxAgeSeconds}, s-maxage=${maxAgeSeconds}`
  return async (c, next) => {
    const key = store ? cacheKey(new URL(c.req.url), await versionOf(c)) : undefined
    const now = Date.now()
    const held =
      key === undefined
        ? undefined
        : (hotHit(key, maxAgeSeconds * 1000, now) ?? (await fromCacheApi(key, maxAgeSeconds, now)))
    if (held) {
      const headers = new Headers(held.headers)
      headers.set('X-Cache', 'HIT')
      headers.set('Age', String(Math.floor((now - held.storedAt) / 1000)))
      if (held.gzip && acceptsGzip(c.req.raw)) {
        // The client may hold the plain answer, as a miss gave it before the twin was made: the
        // same content, so still a 304.
        const plain = headers.get('ETag')!
        headers.set('ETag', gzipEtag(plain))
        return (
          notModified(c.req.raw, headers, cacheControl, plain) ?? gzipResponse(held.gzip, headers)
        )
      }
      return (
        notModified(c.req.raw, headers, cacheControl) ??
        new Response(held.body, { status: 200, headers })
      )
    }

    await next()
    if (c.res.status !== 200) return

    const body = await c.res.arrayBuffer()
    const etag = await etagOf(body)
    const headers = new Headers(c.res.headers)
    // Per-request headers are added again on each hit by the middleware that owns them.
    headers.delete('X-Request-Id')
    headers.set('Cache-Control', cacheControl)
    headers.set('ETag', etag)
    headers.set('Date', new Date(now).toUTCString())
    // Later reads may get the gzip twin: caches between must keep the two apart.
    if (worthGzip(headers.get('Content-Type'), body.byteLength)) {
      headers.append('Vary', 'Accept-Encoding')
    }
    if (key !== undefined) {
      const stored = new Response(body, { status: 200, headers })
      await defer(c, async () => (await caches.open(CACHE_NAME)).put(key, stored.clone()))
    }
    headers.set('X-Cache', 'MISS')
    c.res =
      notModified(c.req.raw, headers, cacheControl) ?? new Response(body, { status: 200, headers })
  }
}

/** A fresh answer of the Cache API (another isolate's, or this one's before it was evicted). */
async function fromCacheApi(key: string, maxAgeSeconds: number, now: number) {
  const hit = await (await caches.open(CACHE_NAME)).match(key)
  if (!hit) return undefined
  const storedAt = Date.parse(hit.headers.get('Date') ?? '')
  // A Date that does not parse is no fresh answer.
  if (!(now - storedAt <= maxAgeSeconds * 1000)) return undefined
  const entry: HotEntry = { body: await hit.arrayBuffer(), headers: [...hit.headers], storedAt }
  // Too big to keep, it is served from the Cache API each time, as it is.
  if (entry.body.byteLength > HOT_ENTRY_BYTES) return entry
  if (worthGzip(hit.headers.get('Content-Type'), entry.body.byteLength)) {
    entry.gzip = await gzip(entry.body)
  }
  keepHot(key, entry)
  return entry
}
