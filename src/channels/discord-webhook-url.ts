// Which Discord webhook URLs a user may set and the Worker may POST to: Discord's own execute-webhook
// address and nothing else, checked when the URL is set and again before each send; a local run
// (ALLOW_LOCAL_TARGETS) also admits a stand-in on a loopback or private host.
import type { Env } from '../env.ts'
import { isNonPublicHost } from '../lib/ip-targets.ts'
import { localTargetsAllowed, outboundTargetProblem } from '../lib/outbound-targets.ts'

export const MAX_DISCORD_WEBHOOK_URL = 512

// Discord's hosts: the stable client's and those of its public test builds, which copy webhook
// URLs on their own domains; the old discordapp.com still answers the same API.
const DISCORD_HOSTS = new Set(
  ['discord.com', 'discordapp.com'].flatMap((d) => [d, `ptb.${d}`, `canary.${d}`]),
)
// /api/webhooks/<snowflake id>/<token>, nothing before or after (no API version, no /slack or
// /github variants, which take other bodies).
const WEBHOOK_PATH = /^\/api\/webhooks\/\d{17,20}\/[A-Za-z0-9_-]{1,200}$/
// A stand-in may serve the same path under a prefix of its own (/discord/api/webhooks/...).
const LOCAL_WEBHOOK_PATH = /\/api\/webhooks\/\d{17,20}\/[A-Za-z0-9_-]{1,200}$/

const NOT_A_WEBHOOK =
  'discordWebhookUrl must be a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>)'

/** Why the Worker may not send to `value`, in the API's wording; undefined when it may. */
export function discordWebhookProblem(env: Env, value: string): string | undefined {
  if (value.length > MAX_DISCORD_WEBHOOK_URL) {
    return `discordWebhookUrl must be at most ${MAX_DISCORD_WEBHOOK_URL} characters long`
  }
  // Checked on the text: the URL parser drops an empty '?' or '#', which would then pass unseen.
  if (/[?#]/.test(value)) return 'discordWebhookUrl must not have a query string or fragment'
  const allowLocal = localTargetsAllowed(env)
  const problem = outboundTargetProblem(value, ['https:'], allowLocal)
  if (problem === 'credentials') return 'discordWebhookUrl must not contain credentials'
  if (problem) return NOT_A_WEBHOOK
  const url = new URL(value)
  if (allowLocal && isNonPublicHost(url.hostname)) {
    return LOCAL_WEBHOOK_PATH.test(url.pathname) ? undefined : NOT_A_WEBHOOK
  }
  // Discord listens on 443 only; another port on its hosts would reach something else.
  const onDiscord = url.protocol === 'https:' && url.port === '' && DISCORD_HOSTS.has(url.hostname)
  return onDiscord && WEBHOOK_PATH.test(url.pathname) ? undefined : NOT_A_WEBHOOK
}

/**
 * The URL without its token (`https://discord.com/api/webhooks/<id>/…`): the token alone lets
 * anyone post to the channel, so no answer ever shows it.
 */
export function maskDiscordWebhookUrl(value: string): string {
  try {
    const url = new URL(value)
    const path = url.pathname.replace(/\/[^/]*$/, '')
    return `${url.origin}${path}/…`
  } catch {
    return '…'
  }
}
