// Caching of public catalogue reads: Cache-Control for the CDN and browsers, an ETag answered
// with 304, and the Cache API keyed by the catalogue version so a write is seen on the next read.
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { defer } from './defer.ts'

const CACHE_NAME = 'public-catalogue'

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

function notModified(request: Request, etag: string | null, cacheControl: string | null) {
  if (!etag || request.headers.get('If-None-Match') !== etag) return undefined
  const headers = new Headers({ ETag: etag })
  if (cacheControl) headers.set('Cache-Control', cacheControl)
  return new Response(null, { status: 304, headers })
}

/** The current version of what is cached; a new version makes every older entry unreachable. */
export type VersionOf = (c: Context<AppEnv>) => Promise<string>

/**
 * `versionOf` is the caller's (the catalogue passes its version in KV), so this middleware knows
 * nothing of contests. `maxAgeSeconds` bounds how stale a response may be anywhere: in the Cache API (checked against
 * the stored Date as well as expired by the cache), at the CDN (s-maxage) and in browsers.
 */
export function publicCache(
  maxAgeSeconds: number,
  versionOf: VersionOf,
): MiddlewareHandler<AppEnv> {
  const cacheControl = `public, max-age=${maxAgeSeconds}, s-maxage=${maxAgeSeconds}`
  return async (c, next) => {
    const cache = await caches.open(CACHE_NAME)
    const key = cacheKey(new URL(c.req.url), await versionOf(c))
    const hit = await cache.match(key)
    const age = hit ? Date.now() - Date.parse(hit.headers.get('Date') ?? '') : Infinity
    if (hit && age <= maxAgeSeconds * 1000) {
      const headers = new Headers(hit.headers)
      headers.set('X-Cache', 'HIT')
      headers.set('Age', String(Math.floor(age / 1000)))
      return (
        notModified(c.req.raw, hit.headers.get('ETag'), cacheControl) ??
        new Response(hit.body, { status: hit.status, headers })
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
    headers.set('Date', new Date().toUTCString())
    const stored = new Response(body, { status: 200, headers })
    await defer(c, () => cache.put(key, stored.clone()))
    headers.set('X-Cache', 'MISS')
    c.res =
      notModified(c.req.raw, etag, cacheControl) ?? new Response(body, { status: 200, headers })
  }
}
