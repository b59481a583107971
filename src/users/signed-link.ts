// Signed links of emails that act without a sign-in (mute a contest, unsubscribe): an HMAC over
// the link's purpose and values, with a key derived from JWT_SECRET under the link's own label.
import type { Env } from '../env.ts'
import { hmacKey, hmacSha256, timingSafeEqualText, toBase64Url } from '../lib/crypto.ts'
import { jwtConfig } from '../lib/jwt-config.ts'

export interface LinkSigner {
  /** The base64url signature of the values under this link's key and purpose. */
  sign: (env: Env, values: readonly string[]) => Promise<string>
  /** Whether `signature` is ours for the values; compared in constant time. */
  verify: (env: Env, values: readonly string[], signature: string) => Promise<boolean>
}

/**
 * A signer whose key is derived under `label`, so a token can never serve as (or reveal anything
 * of) an access-token signature, a stored code's hash or another link's token. The purpose is
 * signed too: a link for another action cannot be made from this one.
 */
export function linkSigner(label: string, purpose: string): LinkSigner {
  const keys = new WeakMap<object, Promise<CryptoKey>>()
  const keyOf = (env: Env) => {
    let key = keys.get(env)
    if (!key) {
      key = hmacKey(jwtConfig(env).secret)
        .then((root) => hmacSha256(root, label))
        .then(hmacKey)
      keys.set(env, key)
    }
    return key
  }
  const sign = async (env: Env, values: readonly string[]) =>
    toBase64Url(await hmacSha256(await keyOf(env), [purpose, ...values].join('\n')))
  return {
    sign,
    verify: async (env, values, signature) =>
      timingSafeEqualText(await sign(env, values), signature),
  }
}

/** The absolute link for an email, on the service's public address (APP_URL). */
export const linkOn = (appUrl: string, path: string, token: string) =>
  `${appUrl.replace(/\/+$/, '')}${path}?token=${token}`
