// Google's ID token: RS256 against Google's JWKS (fetched from GOOGLE_JWKS_URL, cached), with the
// issuer, audience, expiry and the nonce of this sign-in checked before any claim is believed.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose'

export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com']

export interface GoogleIdentity {
  sub: string
  email: string
  emailVerified: boolean
  name?: string
}

// One key set per URL for the life of the isolate: jose keeps the fetched keys and refetches
// only for an unknown key id (Google rotates its keys) or once they are 10 minutes old.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

function keySetOf(url: string) {
  let keySet = keySets.get(url)
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { cacheMaxAge: 10 * 60_000 })
    keySets.set(url, keySet)
  }
  return keySet
}

/** The identity in a valid ID token; undefined for any token that is not (forged, expired, other). */
export async function verifyGoogleIdToken(
  idToken: string,
  expected: { jwksUrl: string; clientId: string; nonce: string },
  now: number,
): Promise<GoogleIdentity | undefined> {
  try {
    const { payload } = await jwtVerify(idToken, keySetOf(expected.jwksUrl), {
      algorithms: ['RS256'],
      issuer: GOOGLE_ISSUERS,
      audience: expected.clientId,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
    })
    const { sub, email, email_verified: verified, name, nonce } = payload
    if (nonce !== expected.nonce) return undefined
    if (typeof sub !== 'string' || typeof email !== 'string' || !email) return undefined
    return {
      sub,
      email: email.trim().toLowerCase(),
      emailVerified: verified === true,
      name: typeof name === 'string' ? name : undefined,
    }
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined
    throw error
  }
}
