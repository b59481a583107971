// The checks of `npm run deploy` around the wrangler steps: the credentials before anything
// else, the deployed service after the upload, and which channels are off for lack of keys.
import { DeployError } from './deploy-wrangler.mjs'

const PERMISSIONS =
  'an API token (dash.cloudflare.com/profile/api-tokens) from the "Edit Cloudflare Workers" ' +
  'template with D1: Edit and Queues: Edit added'

/**
 * Both credentials given and accepted for the account; answers its workers.dev subdomain (which
 * no wrangler command reads, and which the Worker's address is made of).
 */
export async function checkCredentials({ token, account, baseUrl, where }) {
  const missing = []
  if (!token) missing.push(`CLOUDFLARE_API_TOKEN (${PERMISSIONS})`)
  if (!account) {
    missing.push('CLOUDFLARE_ACCOUNT_ID (the account id: dash.cloudflare.com, Workers & Pages)')
  }
  if (missing.length > 0) {
    throw new DeployError(
      `Missing credentials, so nothing was changed:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
        `Set them in the environment or in ${where} (git-ignored).`,
      2,
    )
  }
  const base = (baseUrl || 'https://api.cloudflare.com/client/v4').replace(/\/+$/, '')
  let res
  try {
    res = await fetch(`${base}/accounts/${account}/workers/subdomain`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(20_000),
    })
  } catch (error) {
    const reason = error.cause?.message ?? error.message
    throw new DeployError(`Cannot reach the Cloudflare API at ${base}: ${reason}`)
  }
  const answer = await res.json().catch(() => ({}))
  if (answer.success && answer.result?.subdomain) return answer.result.subdomain
  if (answer.errors?.[0]?.code === 10007) {
    throw new DeployError(
      'The account has no workers.dev subdomain yet: choose one once at ' +
        `https://dash.cloudflare.com/${account}/workers/onboarding, then run the deploy again.`,
    )
  }
  const reason = answer.errors?.map((e) => `${e.message} [code: ${e.code}]`).join('; ')
  throw new DeployError(
    `Cloudflare refused the credentials for account ${account} ` +
      `(${res.status}: ${reason || 'no reason'}), so nothing was changed.\n` +
      `Check CLOUDFLARE_ACCOUNT_ID, and that CLOUDFLARE_API_TOKEN is ${PERMISSIONS}.`,
    2,
  )
}

/**
 * /contests/health, /openapi.json and / answer as the service does. Retried for `waitMs`: a new
 * workers.dev subdomain or custom domain may take a minute or two to answer.
 */
export async function checkService(base, waitMs = 120_000) {
  const root = base.replace(/\/+$/, '')
  const checks = [
    ['/contests/health', async (res) => (await res.json()).status === 'ok'],
    ['/openapi.json', async (res) => typeof (await res.json()).openapi === 'string'],
    ['/', async (res) => (res.headers.get('content-type') ?? '').startsWith('text/html')],
  ]
  const deadline = Date.now() + waitMs
  for (const [path, good] of checks) {
    for (;;) {
      let last
      try {
        const res = await fetch(`${root}${path}`, { signal: AbortSignal.timeout(10_000) })
        if (res.ok && (await good(res).catch(() => false))) break
        last = res.ok ? `an answer that is not the service's` : `status ${res.status}`
      } catch (error) {
        last = error.cause?.message ?? error.message
      }
      if (Date.now() > deadline) {
        throw new DeployError(
          `The upload is done, but ${root}${path} gave ${last}. Look at the Worker's logs ` +
            '(npx wrangler tail); SMOKE_URL=off skips this check.',
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  }
}

// A channel is off while any setting it needs is missing (src/channels/*.ts).
const CHANNEL_NEEDS = {
  email: ['RESEND_API_KEY'],
  whatsapp: ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'],
  push: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'],
  telegram: ['TELEGRAM_BOT_TOKEN'],
  'Google sign-in': ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
}

/** What is off, each with the settings it lacks, from the names the Worker now has. */
export function channelsOff(secretNames, provided) {
  const has = new Set(secretNames)
  const off = Object.entries(CHANNEL_NEEDS)
    .map(([channel, needs]) => [channel, needs.filter((n) => !has.has(n))])
    .filter(([, lacking]) => lacking.length > 0)
    .map(([channel, lacking]) => `${channel} (${lacking.join(', ')})`)
  // Discord and Slack need no credentials; only these turn them off.
  if (provided.DISCORD_ENABLED === 'false') off.push('discord (DISCORD_ENABLED=false)')
  if (provided.SLACK_ENABLED === 'false') off.push('slack (SLACK_ENABLED=false)')
  return off
}
