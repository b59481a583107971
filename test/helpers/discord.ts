// Discord test fixtures: webhook URLs at the stand-in, the execute-webhook calls it received, and
// Discord's answers for a deleted webhook (404, 10015) and a rate limit (429 with retry_after).
import { standIn, standInUrl } from './stand-in.ts'

let seq = 0

/** A fresh webhook at the stand-in, in Discord's shape (/api/webhooks/<snowflake>/<token>). */
export function discordWebhook() {
  seq++
  const id = `${1_100_000_000_000_000_000n + BigInt(Date.now()) * 1000n + BigInt(seq)}`
  const token = `tok-${seq}_${crypto.randomUUID().replace(/-/g, '')}`
  const path = `/discord/api/webhooks/${id}/${token}`
  return { id, token, path, url: `${standInUrl}${path}` }
}

/** Execute-webhook calls the stand-in received for the webhook at `path`, parsed. */
export async function discordPosts(path: string) {
  const sent = await standIn.requests(path)
  return sent.map((r) => ({ path: r.path, headers: r.headers, body: JSON.parse(r.body) }))
}

/** Discord's answer once a webhook is deleted or its token reset. */
export const scriptUnknownWebhook = (path: string) =>
  standIn.script({
    method: 'POST',
    pathPrefix: path,
    responses: [{ status: 404, body: { message: 'Unknown Webhook', code: 10015 } }],
  })

/** A rate limit asking for `retryAfter` seconds (fractional in the body, whole in the header). */
export const scriptRateLimited = (path: string, retryAfter: number) =>
  standIn.script({
    method: 'POST',
    pathPrefix: path,
    responses: [
      {
        status: 429,
        headers: { 'retry-after': String(Math.ceil(retryAfter)) },
        body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
      },
    ],
  })
