// The three steps of Sign in with Google for API clients, as plain functions: start (to Google),
// finish (Google's callback, to the client with a one-time code) and redeem (the code for tokens).
import type { Db } from '../db/client.ts'
import { ApiError, badRequest } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import type { KeyValueStore } from '../ports/key-value.ts'
import type { SignedIn } from './accounts.ts'
import type { AuthConfig } from './config.ts'
import type { SessionKind } from './sessions.ts'
import { accountForGoogle, openGoogleSession, type GoogleRefusal } from './google-accounts.ts'
import { isAllowedRedirect, type GoogleConfig } from './google-config.ts'
import {
  saveFinishedSignIn,
  saveFlow,
  takeFinishedSignIn,
  takeFlow,
  type ClaimOnce,
  type GoogleFlow,
} from './google-flow-store.ts'
import { verifyGoogleIdToken, type GoogleIdentity } from './google-id-token.ts'
import { authorizationRequest, exchangeForIdToken } from './google-oauth.ts'

export const NOT_CONFIGURED = 'Sign in with Google is not configured on this service'
export const REDIRECT_NOT_ALLOWED = 'redirect_uri is not an allowed client URL'
export const UNKNOWN_STATE = 'Unknown, expired or already used state'
const INVALID_EXCHANGE_CODE = 'Invalid or expired code'

/** Every reason a client's redirect can carry in `error`. */
export type GoogleError =
  GoogleRefusal | 'access_denied' | 'token_exchange_failed' | 'invalid_id_token'

/**
 * What each reason means, for people: the redirect carries it as `error_description` (OAuth's
 * name), so a client can show it without a table of its own.
 */
export const GOOGLE_ERROR_DESCRIPTIONS: Record<GoogleError, string> = {
  access_denied: 'Sign in with Google was cancelled or refused at Google',
  token_exchange_failed: 'Google did not accept the sign-in; start it again',
  invalid_id_token: "Google's answer could not be verified; start the sign-in again",
  email_not_verified: 'Google has not verified the email address of this Google account',
  account_not_verified:
    'An account with this email exists but its address is not verified yet; sign in with the ' +
    'password and verify the address first',
  account_unavailable: 'The account with this email was deleted',
  google_account_mismatch:
    'The account with this email is linked to a different Google account; sign in with that ' +
    'Google account or with the password',
}

/** The configuration, or the 503 that says Google sign-in is off (never a pretend flow). */
export function requireGoogle(config: GoogleConfig | undefined): GoogleConfig {
  if (!config) throw new ApiError(503, NOT_CONFIGURED)
  return config
}

/** Keeps the flow's secrets server-side and returns Google's authorization URL. */
export async function startGoogleSignIn(
  kv: KeyValueStore,
  config: GoogleConfig,
  input: { redirectUri: string; clientState?: string },
): Promise<URL> {
  if (!isAllowedRedirect(config, input.redirectUri)) throw badRequest(REDIRECT_NOT_ALLOWED)
  const request = authorizationRequest(config)
  await saveFlow(kv, request.state, {
    nonce: request.nonce,
    codeVerifier: request.codeVerifier,
    redirectUri: input.redirectUri,
    clientState: input.clientState,
  })
  return request.url
}

function clientRedirect(flow: GoogleFlow, result: { code: string } | { error: GoogleError }) {
  const url = new URL(flow.redirectUri)
  if ('code' in result) url.searchParams.set('code', result.code)
  else {
    url.searchParams.set('error', result.error)
    url.searchParams.set('error_description', GOOGLE_ERROR_DESCRIPTIONS[result.error])
  }
  if (flow.clientState !== undefined) url.searchParams.set('state', flow.clientState)
  return url
}

/** The ID token's identity, or the reason there is none (Google, the exchange, or the token). */
async function identityFrom(
  config: GoogleConfig,
  flow: GoogleFlow,
  input: { code?: string; error?: string },
  now: number,
): Promise<{ identity: GoogleIdentity } | { error: GoogleError }> {
  if (input.error || !input.code) return { error: 'access_denied' }
  let idToken: string
  try {
    idToken = await exchangeForIdToken(config, input.code, flow.codeVerifier)
  } catch (error) {
    log.warn('google-token-exchange-failed', { error })
    return { error: 'token_exchange_failed' }
  }
  const expected = { jwksUrl: config.jwksUrl, clientId: config.clientId, nonce: flow.nonce }
  try {
    const identity = await verifyGoogleIdToken(idToken, expected, now)
    return identity ? { identity } : { error: 'invalid_id_token' }
  } catch (error) {
    // The key set could not be fetched: no verdict on the token, so no sign-in.
    log.warn('google-keys-unavailable', { error })
    return { error: 'invalid_id_token' }
  }
}

/**
 * Google's callback. The state is spent on first use whatever follows; then the code is exchanged
 * with the flow's verifier and the ID token checked. The client's redirect gets a one-time code
 * for the tokens (never the tokens themselves, which a URL would leak to logs and history) or
 * `error=<reason>`. An unknown state names no client to send the browser to: a 400.
 */
export async function finishGoogleSignIn(
  db: Db,
  kv: KeyValueStore,
  config: { auth: AuthConfig; google: GoogleConfig },
  input: { code?: string; state: string; error?: string },
  claim: ClaimOnce,
  now: number,
): Promise<URL> {
  const flow = await takeFlow(kv, input.state, claim)
  if (!flow) throw badRequest(UNKNOWN_STATE)
  const found = await identityFrom(config.google, flow, input, now)
  if ('error' in found) return clientRedirect(flow, { error: found.error })
  const account = await accountForGoogle(db, config.auth, found.identity, now)
  if ('refused' in account) return clientRedirect(flow, { error: account.refused })
  const code = await saveFinishedSignIn(kv, { userId: account.userId })
  return clientRedirect(flow, { code })
}

/**
 * Redeems the one-time code for the same answer as POST /auth/signin; a second use fails. The web
 * app redeems it for a cookie session (`kind` 'web') at its own redirect_uri.
 */
export async function redeemGoogleSignIn(
  db: Db,
  kv: KeyValueStore,
  config: AuthConfig,
  code: string,
  claim: ClaimOnce,
  now: number,
  kind: SessionKind = 'api',
): Promise<SignedIn> {
  const finished = await takeFinishedSignIn(kv, code, claim)
  if (!finished) throw badRequest(INVALID_EXCHANGE_CODE)
  return openGoogleSession(db, config, finished.userId, now, kind)
}
