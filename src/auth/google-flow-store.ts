// Server-side state of Google sign-ins in KV, each under the SHA-256 of its random handle: a flow
// (state -> nonce, PKCE verifier, client redirect) for 10 minutes, and the one-time code that
// carries a finished sign-in to the client for 60 seconds. Both are deleted on first use.
import { randomToken, sha256Hex } from '../lib/crypto.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

export const FLOW_TTL_SECONDS = 10 * 60
export const EXCHANGE_TTL_SECONDS = 60

export interface GoogleFlow {
  nonce: string
  codeVerifier: string
  redirectUri: string
  /** The client's own opaque value, echoed back to it with the result. */
  clientState?: string
}

export interface FinishedSignIn {
  userId: string
}

const flowKey = async (state: string) => `google:flow:${await sha256Hex(state)}`
const exchangeKey = async (code: string) => `google:code:${await sha256Hex(code)}`

/** Claims a handle for its one use (http/limiter.ts claimOnce); false once it was claimed. */
export type ClaimOnce = (key: string, ttlSeconds: number) => Promise<boolean>

/**
 * Reads, claims and deletes: a second use of the same handle finds nothing, and of two uses
 * racing before the delete is seen everywhere, only the one that wins the claim gets the value.
 */
async function take<T>(
  kv: KeyValueStore,
  key: string,
  claim: ClaimOnce,
  ttlSeconds: number,
): Promise<T | undefined> {
  const value = await kv.get<T>(key, 'json')
  if (value === null) return undefined
  if (!(await claim(key, ttlSeconds))) return undefined
  await kv.delete(key)
  return value
}

export async function saveFlow(kv: KeyValueStore, state: string, flow: GoogleFlow) {
  await kv.put(await flowKey(state), JSON.stringify(flow), { expirationTtl: FLOW_TTL_SECONDS })
}

export async function takeFlow(kv: KeyValueStore, state: string, claim: ClaimOnce) {
  return take<GoogleFlow>(kv, await flowKey(state), claim, FLOW_TTL_SECONDS)
}

/** A new one-time code for a finished sign-in; only its hash is stored. */
export async function saveFinishedSignIn(kv: KeyValueStore, signIn: FinishedSignIn) {
  const code = randomToken()
  const ttl = { expirationTtl: EXCHANGE_TTL_SECONDS }
  await kv.put(await exchangeKey(code), JSON.stringify(signIn), ttl)
  return code
}

export async function takeFinishedSignIn(kv: KeyValueStore, code: string, claim: ClaimOnce) {
  return take<FinishedSignIn>(kv, await exchangeKey(code), claim, EXCHANGE_TTL_SECONDS)
}
