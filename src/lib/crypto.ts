// Password hashing (PBKDF2), digests, keyed hashes and random codes, all on WebCrypto.

const encoder = new TextEncoder()

// workerd refuses PBKDF2 above 100,000 iterations per call; the count is stored with each hash so
// it can be raised later (by chaining calls or moving to another KDF) without a migration.
export const PBKDF2_ITERATIONS = 100_000
const PBKDF2_MAX_ITERATIONS = 100_000
const SALT_BYTES = 16
const HASH_BYTES = 32
const SCHEME = 'pbkdf2-sha256'

export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The bytes of an even-length hex string (checked by the caller). */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length))
}

/** An opaque bearer secret: 32 random bytes, base64url. */
export function randomToken(bytes = 32): string {
  return toBase64Url(randomBytes(bytes))
}

/** A string of `length` decimal digits, each uniform (rejection sampling avoids modulo bias). */
export function randomDigits(length: number): string {
  let out = ''
  const buffer = new Uint32Array(length * 2)
  const limit = Math.floor(0x1_0000_0000 / 10) * 10
  while (out.length < length) {
    crypto.getRandomValues(buffer)
    for (const n of buffer) {
      if (n < limit && out.length < length) out += String(n % 10)
    }
  }
  return out
}

/** Compares without an early exit, so the time taken does not reveal where inputs differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i]
  return diff === 0
}

export function timingSafeEqualText(a: string, b: string): boolean {
  return timingSafeEqual(encoder.encode(a), encoder.encode(b))
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))))
}

export function hmacKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : secret
  return crypto.subtle.importKey(
    'raw',
    raw as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
}

export async function hmacSha256(key: CryptoKey, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)))
}

export async function hmacSha256Hex(key: CryptoKey, message: string): Promise<string> {
  return toHex(await hmacSha256(key, message))
}

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, [
    'deriveBits',
  ])
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    HASH_BYTES * 8,
  )
  return new Uint8Array(bits)
}

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>`, salt and hash base64url. */
export async function hashPassword(
  password: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const hash = await pbkdf2(password, salt, iterations)
  return `${SCHEME}$${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`
}

export interface PasswordCheck {
  ok: boolean
  /** The stored hash uses weaker parameters than new hashes do. */
  needsRehash: boolean
}

export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  const [scheme, iterText, saltText, hashText] = stored.split('$')
  const iterations = Number(iterText)
  if (
    scheme !== SCHEME ||
    !Number.isInteger(iterations) ||
    iterations < 1 ||
    iterations > PBKDF2_MAX_ITERATIONS ||
    !saltText ||
    !hashText
  ) {
    return { ok: false, needsRehash: false }
  }
  const expected = fromBase64Url(hashText)
  const actual = await pbkdf2(password, fromBase64Url(saltText), iterations)
  const ok = timingSafeEqual(actual, expected)
  return { ok, needsRehash: ok && iterations < PBKDF2_ITERATIONS }
}

// A fixed, valid hash to verify against when no account matches, so that an unknown email costs
// the same time as a wrong password and sign-in does not reveal which emails exist.
const DUMMY_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$${'A'.repeat(43)}`

export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(password, DUMMY_HASH)
}
