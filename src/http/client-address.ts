// The client's address as a port: each runtime entry says where it comes from, and every per-address
// limit and record asks here, so no part of the core trusts a request header on its own.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { settings } from '../env.ts'

/** Where a runtime finds the address of the client that sent a request. */
export type ClientAddress = (c: Context<AppEnv>) => string | undefined

/**
 * Workers: Cloudflare's edge sets CF-Connecting-IP on every request and overwrites any value the
 * client sent, so there the header is the client.
 */
export const cloudflareClientAddress: ClientAddress = (c) => c.req.header('CF-Connecting-IP')

// An IPv4 or IPv6 address's characters and length: a header holding anything else was not
// written by the proxy as configured, so the socket's peer counts instead.
const ADDRESS = /^[0-9a-f.:]{2,45}$/i

/**
 * The X-Forwarded-For entry `hops` from the right: each trusted proxy appends the address it saw,
 * so with `hops` of them the entry they agree on is that far from the end; entries further left
 * are what the client (or proxies we do not know) wrote. A shorter list means a trusted proxy was
 * passed by, and its leftmost entry is then the furthest one a trusted proxy appended.
 */
function forwardedHop(header: string | undefined, hops: number): string | undefined {
  if (!header) return undefined
  const entries = header.split(',').map((e) => e.trim())
  return entries[Math.max(0, entries.length - hops)]
}

/**
 * Runtimes other than Workers: the socket's peer. Behind a proxy that peer is the proxy itself,
 * so TRUST_PROXY_HEADER names the one header that proxy sets (only where nothing else can reach
 * the socket); no other header counts, whatever the client sends, since a proxy passes on the
 * headers it does not set itself.
 */
export function socketClientAddress(peer: ClientAddress): ClientAddress {
  return (c) => {
    const s = settings(c.env)
    const header = s.TRUST_PROXY_HEADER.header
    if (header) {
      const value =
        header === 'x-forwarded-for'
          ? forwardedHop(c.req.header(header), s.TRUSTED_PROXY_HOPS)
          : c.req.header(header)?.trim()
      if (value && ADDRESS.test(value)) return value
    }
    return peer(c)
  }
}

/** The client's address as the runtime reported it; undefined when it could not say. */
export const clientAddress = (c: Context<AppEnv>): string | undefined => c.get('clientAddress')

/**
 * The client's address as a counter key. An IPv6 client usually holds a whole /64, so its
 * addresses count as one; an unknown address shares one bucket.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown'
  // IPv4, also when written IPv4-mapped (::ffff:192.0.2.1).
  if (ip.includes('.')) return ip.slice(ip.lastIndexOf(':') + 1)
  if (!ip.includes(':')) return ip
  const [head, tail = ''] = ip.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** The counter key of the client of this request. */
export const clientIp = (c: Context<AppEnv>): string => clientKey(clientAddress(c))
