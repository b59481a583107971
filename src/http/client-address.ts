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

/**
 * The last X-Forwarded-For hop: the one the proxy in front of us appended. Earlier hops are what
 * the client (or proxies we do not know) wrote, so any of them can be made up.
 */
function lastForwardedHop(header: string | undefined): string | undefined {
  const hop = header?.split(',').pop()?.trim()
  return hop ? hop : undefined
}

/**
 * Runtimes other than Workers: the socket's peer. Behind a proxy that peer is the proxy itself,
 * so TRUST_PROXY_HEADER=true (only where such a proxy sets the headers and nothing else can reach
 * the socket) takes CF-Connecting-IP, or else the proxy's X-Forwarded-For hop, instead.
 */
export function socketClientAddress(peer: ClientAddress): ClientAddress {
  return (c) => {
    if (settings(c.env).TRUST_PROXY_HEADER) {
      const forwarded =
        c.req.header('CF-Connecting-IP')?.trim() ||
        lastForwardedHop(c.req.header('X-Forwarded-For'))
      if (forwarded) return forwarded
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
