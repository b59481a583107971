// Signing secrets: made per Standard Webhooks (`whsec_` + base64 of random bytes) and kept in D1
// only encrypted (AES-GCM), since the service must read them back to sign every delivery.
import { fromBase64Url, randomBytes, toBase64Url } from '../lib/crypto.ts'
import { fromBase64, toBase64 } from './base64.ts'

const PREFIX = 'whsec_'
const SECRET_BYTES = 32
const IV_BYTES = 12
// The version names the key derivation, so another key source can be introduced without
// making the stored secrets unreadable.
const FORMAT = 'v1'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function newSigningSecret(): string {
  return PREFIX + toBase64(randomBytes(SECRET_BYTES))
}

/** The HMAC key bytes of a secret: the base64 after `whsec_`. */
export function signingKeyBytes(secret: string): Uint8Array {
  const bytes = secret.startsWith(PREFIX) ? fromBase64(secret.slice(PREFIX.length)) : undefined
  if (!bytes || bytes.length === 0) throw new Error('Malformed webhook signing secret')
  return bytes
}

const keys = new Map<string, Promise<CryptoKey>>()

/** AES-256-GCM key derived by HKDF from JWT_SECRET under a label of its own. */
function encryptionKey(rootSecret: string): Promise<CryptoKey> {
  let key = keys.get(rootSecret)
  if (!key) {
    key = crypto.subtle
      .importKey('raw', encoder.encode(rootSecret), 'HKDF', false, ['deriveKey'])
      .then((root) =>
        crypto.subtle.deriveKey(
          {
            name: 'HKDF',
            hash: 'SHA-256',
            salt: encoder.encode('contest-alert-service/webhooks'),
            info: encoder.encode('webhook signing secret encryption v1'),
          },
          root,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      )
    keys.set(rootSecret, key)
  }
  return key
}

/**
 * `v1.<iv>.<ciphertext>`. The endpoint id is authenticated with it, so a ciphertext copied onto
 * another endpoint's row does not decrypt there.
 */
export async function sealSecret(rootSecret: string, endpointId: string, secret: string) {
  const iv = randomBytes(IV_BYTES)
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: iv as BufferSource, additionalData: encoder.encode(endpointId) },
    await encryptionKey(rootSecret),
    encoder.encode(secret),
  )
  return `${FORMAT}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`
}

async function openWith(rootSecret: string, endpointId: string, sealed: string) {
  const [format, iv, ciphertext] = sealed.split('.')
  if (format !== FORMAT || !iv || !ciphertext) throw new Error('Unknown webhook secret format')
  const plain = await crypto.subtle.decrypt(
    {
      name: 'AES-GCM',
      iv: fromBase64Url(iv) as BufferSource,
      additionalData: encoder.encode(endpointId),
    },
    await encryptionKey(rootSecret),
    fromBase64Url(ciphertext) as BufferSource,
  )
  return decoder.decode(plain)
}

/** The root secrets a sealed secret may be under: the current one, then the previous one. */
export interface RootSecrets {
  rootSecret: string
  previousRootSecret?: string
}

/**
 * The secret in clear, and whether it was sealed under the previous root secret (so it should be
 * sealed again). AES-GCM authenticates, so a wrong key fails rather than yield other bytes.
 */
export async function openSecretOf(
  roots: RootSecrets,
  endpointId: string,
  sealed: string,
): Promise<{ secret: string; underPrevious: boolean }> {
  try {
    return { secret: await openWith(roots.rootSecret, endpointId, sealed), underPrevious: false }
  } catch (error) {
    if (!roots.previousRootSecret) throw error
    const secret = await openWith(roots.previousRootSecret, endpointId, sealed)
    return { secret, underPrevious: true }
  }
}

export async function openSecret(roots: RootSecrets, endpointId: string, sealed: string) {
  return (await openSecretOf(roots, endpointId, sealed)).secret
}
