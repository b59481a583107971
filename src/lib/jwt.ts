// Access tokens: HS256 JWTs (jose) of 15 minutes carrying sub, sid and role; alg, iss, aud pinned.
import { errors, jwtVerify, SignJWT } from 'jose'
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
  secret: string
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

export async function signAccessToken(
  config: JwtConfig,
  claims: AccessClaims,
  now: number,
): Promise<string> {
  const issuedAt = Math.floor(now / 1000)
  return new SignJWT({ sid: claims.sid, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
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
    const { payload } = await jwtVerify(token, keyOf(config.secret), {
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
