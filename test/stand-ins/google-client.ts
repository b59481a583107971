// The OAuth client the Google stand-in knows: shared by the stand-in (Node) and the tests (workerd).

export const GOOGLE_TEST_CLIENT = {
  id: 'stand-in-client.apps.googleusercontent.com',
  secret: 'stand-in-google-client-secret',
}

/** What the next ID token says; `overrides` bend it the ways a forged or stale token would. */
export interface GoogleProfile {
  sub: string
  email: string
  email_verified: boolean
  name?: string
  overrides?: {
    aud?: string
    iss?: string
    nonce?: string
    /** Seconds from now at which the token expires (negative: already expired). */
    expiresIn?: number
    /** Signed by a key the JWKS does not serve, under the served key's id. */
    badSignature?: boolean
  }
}
