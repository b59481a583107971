// Access tokens: HS256 JWTs (jose) of 15 minutes carrying sub, sid and role; alg, iss, aud pinned.
// Each names its key (`kid`), so JWT_SECRET can rotate while tokens of the previous one still verify.
import { errors, jwtVerify, SignJWT, type JWTHeaderParameters } from 'jose'
import { hmacKey, hmacSha256Hex } from './crypto.ts'
import { MINUTE_MS } from './time.ts'

export const ACCESS_TOKEN_TTL_MS = 15 * MINUTE_MS
// RFC 9068 type, so a token of another kind signed with the same secret is never accepted here.
const TOKEN_TYPE = 'at+jwt'
const MIN_SECRET_LENGTH = 32

export type Role = 'user' | 'admin'

export interface AccessClaims {
  sub: string
  sid: string
  role: Role
}

export interface JwtConfig {
  /** Signs every token and verifies those that name it. */
  secret: string
  /**
   * JWT_SECRET_PREVIOUS during a rotation: verifies the tokens that name it, never signs. Keys
   * derived from JWT_SECRET for other purposes (signed links, webhook secrets) accept it too.
   */
  previousSecret?: string
  issuer: string
  audience: string
}

const keys = new Map<string, Uint8Array>()

function keyOf(secret: string): Uint8Array {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`)
  }
  let key = keys.get(secret)
  if (!key) {
    key = new TextEncoder().encode(secret)
    keys.set(secret, key)
  }
  return key
}

const keyIds = new Map<string, Promise<string>>()

/**
 * The `kid` of tokens signed with `secret`: 8 hex digits of an HMAC of a fixed label under the
 * secret, so the header names the key without revealing anything a guess of the secret could be
 * checked against beyond those 32 bits (and the secret is at least 32 random characters).
 */
export function jwtKeyId(secret: string): Promise<string> {
  let id = keyIds.get(secret)
  if (!id) {
    id = hmacKey(keyOf(secret))
      .then((key) => hmacSha256Hex(key, 'contest-alert-service/access-token-key-id'))
      .then((hex) => hex.slice(0, 8))
    keyIds.set(secret, id)
  }
  return id
}

/**
 * The key a token's header names: the current secret's, or the previous one's while it is set.
 * A token without `kid` was signed before tokens named their key; the current secret verifies it
 * (for one release: such tokens expire 15 minutes after the upgrade). Any other kid is refused.
 */
async function keyFor(config: JwtConfig, header: JWTHeaderParameters): Promise<Uint8Array> {
  if (header.kid === undefined) return keyOf(config.secret)
  if (header.kid === (await jwtKeyId(config.secret))) return keyOf(config.secret)
  const previous = config.previousSecret
  if (previous && header.kid === (await jwtKeyId(previous))) return keyOf(previous)
  throw new errors.JWKSNoMatchingKey()
}

export async function signAccessToken(
  config: JwtConfig,
  claims: AccessClaims,
  now: number,
): Promise<string> {
  const issuedAt = Math.floor(now / 1000)
  return new SignJWT({ sid: claims.sid, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE, kid: await jwtKeyId(config.secret) })
    .setSubject(claims.sub)
    .setIssuer(config.issuer)
    .setAudience(config.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_MS / 1000)
    .sign(keyOf(config.secret))
}

/** The claims of a valid token, or undefined for any token that is not (expired, forged, other). */
export async function verifyAccessToken(
  config: JwtConfig,
  token: string,
  now: number = Date.now(),
): Promise<AccessClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, (header) => keyFor(config, header), {
      algorithms: ['HS256'],
      issuer: config.issuer,
      audience: config.audience,
      typ: TOKEN_TYPE,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    const { sub, sid, role } = payload
    if (typeof sub !== 'string' || typeof sid !== 'string') return undefined
    if (role !== 'user' && role !== 'admin') return undefined
    return { sub, sid, role }
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined
    throw error
  }
}
