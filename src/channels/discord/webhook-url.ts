// Which Discord webhook URLs a user may set: Discord's own execute-webhook address and nothing else
// (the rules every webhook channel follows are in ../webhook-url.ts).
import type { Env } from '../../env.ts'
import { maskWebhookUrl, webhookUrlProblem, type WebhookUrlRule } from '../webhook-url.ts'

export const MAX_DISCORD_WEBHOOK_URL = 512

const RULE: WebhookUrlRule = {
  field: 'discordWebhookUrl',
  provider: 'Discord',
  maxLength: MAX_DISCORD_WEBHOOK_URL,
  // The stable client's hosts and those of its public test builds, which copy webhook URLs on
  // their own domains; the old discordapp.com still answers the same API.
  hosts: new Set(['discord.com', 'discordapp.com'].flatMap((d) => [d, `ptb.${d}`, `canary.${d}`])),
  // /api/webhooks/<snowflake id>/<token>, with no API version and no /slack or /github variants,
  // which take other bodies.
  path: /^\/api\/webhooks\/\d{17,20}\/[A-Za-z0-9_-]{1,200}$/,
  localPath: /\/api\/webhooks\/\d{17,20}\/[A-Za-z0-9_-]{1,200}$/,
  form: 'https://discord.com/api/webhooks/<id>/<token>',
}

export const discordWebhookProblem = (env: Env, value: string) =>
  webhookUrlProblem(RULE, env, value)

/** `https://discord.com/api/webhooks/<id>/…`: no answer ever shows the token. */
export const maskDiscordWebhookUrl = maskWebhookUrl
