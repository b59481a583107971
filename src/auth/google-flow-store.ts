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

/** Reads and deletes: a second use of the same handle finds nothing. */
async function take<T>(kv: KeyValueStore, key: string): Promise<T | undefined> {
  const value = await kv.get<T>(key, 'json')
  if (value === null) return undefined
  await kv.delete(key)
  return value
}

export async function saveFlow(kv: KeyValueStore, state: string, flow: GoogleFlow) {
  await kv.put(await flowKey(state), JSON.stringify(flow), { expirationTtl: FLOW_TTL_SECONDS })
}

export async function takeFlow(kv: KeyValueStore, state: string) {
  return take<GoogleFlow>(kv, await flowKey(state))
}

/** A new one-time code for a finished sign-in; only its hash is stored. */
export async function saveFinishedSignIn(kv: KeyValueStore, signIn: FinishedSignIn) {
  const code = randomToken()
  const ttl = { expirationTtl: EXCHANGE_TTL_SECONDS }
  await kv.put(await exchangeKey(code), JSON.stringify(signIn), ttl)
  return code
}

export async function takeFinishedSignIn(kv: KeyValueStore, code: string) {
  return take<FinishedSignIn>(kv, await exchangeKey(code))
}
