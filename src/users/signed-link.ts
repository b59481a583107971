// Signed links of emails that act without a sign-in (mute a contest, unsubscribe): an HMAC over
// the link's purpose and values, with a key derived from JWT_SECRET under the link's own label
// (and, during a rotation, from JWT_SECRET_PREVIOUS for verifying only).
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
  const keys = new WeakMap<object, Promise<CryptoKey>[]>()
  const derive = (secret: string) =>
    hmacKey(secret)
      .then((root) => hmacSha256(root, label))
      .then(hmacKey)
  // The current secret's key first (it signs); while JWT_SECRET rotates, the previous secret's
  // too, so links already mailed (valid for days) keep working until it is removed.
  const keysOf = (env: Env) => {
    let derived = keys.get(env)
    if (!derived) {
      const { secret, previousSecret } = jwtConfig(env)
      derived = [secret, ...(previousSecret ? [previousSecret] : [])].map(derive)
      keys.set(env, derived)
    }
    return derived
  }
  const signWith = async (key: Promise<CryptoKey>, values: readonly string[]) =>
    toBase64Url(await hmacSha256(await key, [purpose, ...values].join('\n')))
  return {
    sign: (env, values) => signWith(keysOf(env)[0], values),
    verify: async (env, values, signature) => {
      let matched = false
      // Every key is tried, so the time taken does not tell which one a signature was made with.
      for (const key of keysOf(env)) {
        if (timingSafeEqualText(await signWith(key, values), signature)) matched = true
      }
      return matched
    },
  }
}

/** The absolute link for an email, on the service's public address (APP_URL). */
export const linkOn = (appUrl: string, path: string, token: string) =>
  `${appUrl.replace(/\/+$/, '')}${path}?token=${token}`
