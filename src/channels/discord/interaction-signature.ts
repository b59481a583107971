// Discord signs every interaction it POSTs: Ed25519 over the timestamp header followed by the raw
// body, with the application's key (the hex public key of the Developer Portal). Checked with Web
// Crypto, which Workers and Deno both carry; a timestamp far from now is refused, so a recorded
// request cannot be played again later (and within the window interaction-replay.ts runs it once).
import { fromHex } from '../../lib/crypto.ts'

export type SignatureCheck = 'ok' | 'missing' | 'stale' | 'mismatch'

// Discord's own libraries take 5 minutes either way.
export const MAX_SKEW_SECONDS = 5 * 60

/** Whether `hex` can be an Ed25519 public key: 32 bytes. */
export const isPublicKeyHex = (hex: string | undefined): hex is string =>
  typeof hex === 'string' && /^[0-9a-fA-F]{64}$/.test(hex)

const keys = new Map<string, Promise<CryptoKey>>()

function publicKey(hex: string): Promise<CryptoKey> {
  let key = keys.get(hex)
  if (!key) {
    key = crypto.subtle.importKey('raw', fromHex(hex), { name: 'Ed25519' }, false, ['verify'])
    keys.set(hex, key)
  }
  return key
}

export async function checkInteractionSignature(
  publicKeyHex: string,
  signature: string | undefined,
  timestamp: string | undefined,
  body: string,
  now: number,
): Promise<SignatureCheck> {
  if (
    !signature ||
    !timestamp ||
    !/^[0-9a-fA-F]{128}$/.test(signature) ||
    !/^\d{1,12}$/.test(timestamp)
  ) {
    return 'missing'
  }
  if (Math.abs(now / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return 'stale'
  const signed = new TextEncoder().encode(timestamp + body)
  const valid = await crypto.subtle.verify(
    'Ed25519',
    await publicKey(publicKeyHex),
    fromHex(signature),
    signed,
  )
  return valid ? 'ok' : 'mismatch'
}
