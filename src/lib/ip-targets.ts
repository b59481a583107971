// Whether a URL the service is asked to fetch points at a private, loopback, link-local or other
// non-public target (SSRF), for every feature that fetches a caller's URL (resources, webhooks,
// push endpoints, Slack and Discord webhooks); outbound-targets.ts applies it with the local-run
// switch, which never lifts the link-local and cloud metadata rule.
// Workers cannot resolve a name before fetching it, so a public name whose DNS answer is private
// passes this check: the egress proxy in front of the fetching service must refuse those too.

/** IPv4 ranges that are not publicly routable, as [first address, prefix length]. */
const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including cloud metadata at 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including the broadcast address
]

/**
 * Link-local addresses and the ones clouds serve instance metadata (and credentials) on: never a
 * target, not even for a local run, which may otherwise reach loopback and private hosts.
 */
const METADATA_V4: [string, number][] = [
  ['169.254.0.0', 16], // link-local, with 169.254.169.254 (AWS, GCP, Azure, Oracle, DigitalOcean)
  ['100.100.100.200', 32], // Alibaba Cloud's metadata
  ['168.63.129.16', 32], // Azure's WireServer, reachable from its hosts only though public
]
/** AWS's metadata over IPv6 (function declarations below are hoisted). */
const METADATA_V6 = parseIPv6('fd00:ec2::254') as Uint8Array
const METADATA_NAMES = ['metadata', 'metadata.google.internal', 'metadata.goog']

/** Names that only ever resolve inside a private network. */
const PRIVATE_NAMES = ['localhost']
const PRIVATE_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa']

/** A dotted-quad IPv4 address as an unsigned 32-bit number; undefined if `text` is not one. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined
    value = value * 256 + Number(part)
  }
  return value
}

/** An IPv6 address (no brackets, no zone) as 16 bytes; undefined if `text` is not one. */
export function parseIPv6(text: string): Uint8Array | undefined {
  let s = text.toLowerCase()
  const bytes = new Uint8Array(16)
  // A trailing dotted quad (::ffff:10.0.0.1) fills the last four bytes.
  const lastColon = s.lastIndexOf(':')
  if (lastColon === -1) return undefined
  const hasV4 = s.includes('.', lastColon)
  if (hasV4) {
    const v4 = parseIPv4(s.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    new DataView(bytes.buffer).setUint32(12, v4)
    s = `${s.slice(0, lastColon + 1)}0:0`
  }
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'))
  const head = groupsOf(halves[0])
  const tail = halves.length === 2 ? groupsOf(halves[1]) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail]
  for (const [i, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined
    // Groups 6 and 7 are then placeholders for the dotted quad, whose bytes are already set.
    if (hasV4 && i >= 6) continue
    const value = parseInt(group, 16)
    bytes[i * 2] = value >> 8
    bytes[i * 2 + 1] = value & 255
  }
  return bytes
}

function inV4Range(address: number, [first, prefix]: [string, number]): boolean {
  const base = parseIPv4(first) as number
  const size = 2 ** (32 - prefix)
  return address >= base && address < base + size
}

export function isNonPublicIPv4(address: number): boolean {
  return NON_PUBLIC_V4.some((range) => inV4Range(address, range))
}

const allZero = (bytes: Uint8Array, from: number, to: number) =>
  bytes.subarray(from, to).every((b) => b === 0)

const embeddedV4 = (bytes: Uint8Array, at: number) =>
  new DataView(bytes.buffer, bytes.byteOffset).getUint32(at)

/**
 * The IPv4 addresses an IPv6 address reaches through a form that embeds them, or undefined when it
 * is none of those forms. ::/96 holds ::, ::1 and the deprecated IPv4-compatible form;
 * ::ffff:0:0/96 is IPv4-mapped and ::ffff:0:0:0/96 IPv4-translated (RFC 2765). Each reaches the
 * IPv4 address in its last four bytes, as does NAT64's 64:ff9b::/96, so a private address hides
 * behind none of them.
 */
function embeddedIPv4s(bytes: Uint8Array): number[] | undefined {
  if (allZero(bytes, 0, 12)) return [embeddedV4(bytes, 12)]
  if (allZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return [embeddedV4(bytes, 12)]
  }
  if (allZero(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && allZero(bytes, 10, 12)) {
    return [embeddedV4(bytes, 12)]
  }
  if (isNat64(bytes) && allZero(bytes, 4, 12)) return [embeddedV4(bytes, 12)]
  // 6to4 (2002::/16) carries the IPv4 address of its relay in bytes 2 to 5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return [embeddedV4(bytes, 2)]
  // Teredo (2001::/32, RFC 4380) reaches its server's IPv4 address (bytes 4 to 7) and its
  // client's, stored inverted in the last four bytes; a private one at either end is refused.
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x00 && bytes[3] === 0x00) {
    return [embeddedV4(bytes, 4), (embeddedV4(bytes, 12) ^ 0xffffffff) >>> 0]
  }
  return undefined
}

const isNat64 = (bytes: Uint8Array) =>
  bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b

export function isNonPublicIPv6(bytes: Uint8Array): boolean {
  // 64:ff9b:1::/48 is for local use only (RFC 8215, not globally reachable), so it is refused
  // whatever it embeds; 64:ff9b::/96 embeds a public IPv4 address.
  if (isNat64(bytes) && !allZero(bytes, 4, 12)) return true
  const reached = embeddedIPv4s(bytes)
  if (reached) return reached.some(isNonPublicIPv4)
  if ((bytes[0] & 0xfe) === 0xfc) return true // fc00::/7 unique local
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return true // fe80::/10 link-local
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return true // fec0::/10 site-local
  if (bytes[0] === 0xff) return true // ff00::/8 multicast
  if (bytes[0] === 0x01 && allZero(bytes, 1, 8)) return true // 100::/64 discard
  // 2001:db8::/32 documentation
  return bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8
}

/**
 * Whether `hostname` (as URL.hostname gives it: lower case, IPv6 in brackets, IPv4 in dotted
 * decimal whatever form the URL used) is an address or name outside the public internet.
 * Single-label names count as private: they resolve only through a local search domain.
 */
export function isNonPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '')
  if (host.startsWith('[') && host.endsWith(']')) {
    const v6 = parseIPv6(host.slice(1, -1))
    // An address the parser cannot read (a zone id, say) is refused rather than trusted.
    return v6 === undefined || isNonPublicIPv6(v6)
  }
  const v4 = parseIPv4(host)
  if (v4 !== undefined) return isNonPublicIPv4(v4)
  if (!host.includes('.')) return true
  return PRIVATE_NAMES.includes(host) || PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix))
}

const isMetadataIPv4 = (address: number) => METADATA_V4.some((range) => inV4Range(address, range))

function isMetadataIPv6(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return true // fe80::/10 link-local
  if (bytes.every((b, i) => b === METADATA_V6[i])) return true
  return embeddedIPv4s(bytes)?.some(isMetadataIPv4) ?? false
}

/**
 * Whether `hostname` (as URL.hostname gives it) is link-local or a cloud's metadata address or
 * name, in any spelling an IPv6 form can give it: refused by every check, local runs included.
 */
export function isLinkLocalOrMetadataHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '')
  if (host.startsWith('[') && host.endsWith(']')) {
    const v6 = parseIPv6(host.slice(1, -1))
    // A zone id (fe80::1%eth0) is only ever given to a link-local address.
    return v6 === undefined || isMetadataIPv6(v6)
  }
  const v4 = parseIPv4(host)
  if (v4 !== undefined) return isMetadataIPv4(v4)
  return METADATA_NAMES.includes(host)
}

export type TargetUrlProblem = 'invalid' | 'scheme' | 'credentials' | 'non_public'

/**
 * Why `value` is not a URL the service may be asked to fetch, or undefined when it is one.
 * The URL parser has already turned 0x7f.1, 2130706433 and 127.1 into 127.0.0.1, and IPv6
 * literals into their compressed form, so each spelling of an address is checked as that address.
 */
export function targetUrlProblem(
  value: string,
  schemes: readonly string[] = ['http:', 'https:'],
): TargetUrlProblem | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'invalid'
  }
  if (!schemes.includes(url.protocol)) return 'scheme'
  if (url.username || url.password) return 'credentials'
  const host = url.hostname
  if (!host || isNonPublicHost(host) || isLinkLocalOrMetadataHost(host)) return 'non_public'
  return undefined
}
