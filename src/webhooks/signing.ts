// Standard Webhooks signatures: HMAC-SHA256 over `id.timestamp.body` with the secret's key bytes.
import { hmacKey, hmacSha256 } from '../lib/crypto.ts'
import { toBase64 } from './base64.ts'
import { signingKeyBytes } from './secret.ts'

/** `v1,<base64 signature>`, the value of the webhook-signature header. */
export async function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const key = await hmacKey(signingKeyBytes(secret))
  return `v1,${toBase64(await hmacSha256(key, `${id}.${timestampSeconds}.${body}`))}`
}

/** The headers of one delivery attempt; signed afresh each time, as receivers reject old ones. */
export async function webhookHeaders(
  secret: string,
  id: string,
  now: number,
  body: string,
): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000)
  return {
    'content-type': 'application/json',
    'user-agent': 'ContestAlertService-Webhooks/1.0',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': await signWebhook(secret, id, timestamp, body),
  }
}
