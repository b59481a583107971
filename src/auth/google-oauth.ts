// The authorization-code flow with Google through arctic's OAuth 2.0 client (PKCE S256), pointed
// at the configured endpoints rather than arctic's fixed Google ones, so a stand-in can play Google.
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from 'arctic'
import type { GoogleConfig } from './google-config.ts'

const SCOPES = ['openid', 'email', 'profile']

const clientOf = (config: GoogleConfig) =>
  new OAuth2Client(config.clientId, config.clientSecret, config.callbackUrl)

/** A new authorization request: Google's URL and the secrets this service keeps for the callback. */
export function authorizationRequest(config: GoogleConfig) {
  const state = generateState()
  const nonce = generateState()
  const codeVerifier = generateCodeVerifier()
  const url = clientOf(config).createAuthorizationURLWithPKCE(
    config.authUrl,
    state,
    CodeChallengeMethod.S256,
    codeVerifier,
    SCOPES,
  )
  // arctic leaves the OpenID nonce to the caller; the ID token must carry it back.
  url.searchParams.set('nonce', nonce)
  return { url, state, nonce, codeVerifier }
}

/** Exchanges the code (with the PKCE verifier) for Google's tokens; the ID token is all we use. */
export async function exchangeForIdToken(
  config: GoogleConfig,
  code: string,
  codeVerifier: string,
): Promise<string> {
  const tokens = await clientOf(config).validateAuthorizationCode(
    config.tokenUrl,
    code,
    codeVerifier,
  )
  return tokens.idToken()
}
