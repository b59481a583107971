// The Discord channel: one embed posted to the channel webhook a user pasted. It needs no
// credentials of ours, so it is on unless DISCORD_ENABLED=false; a webhook Discord no longer knows
// (404) is dead and forgotten.
import { defineChannel, resultOf } from '../define.ts'
import { discordProvider, sendDiscord } from './webhook.ts'
import {
  discordWebhookProblem,
  maskDiscordWebhookUrl,
  MAX_DISCORD_WEBHOOK_URL,
} from './webhook-url.ts'

// Discord caps an embed's title at 256 characters, its text at 4,096.
const EMBED_TITLE_LIMIT = 256
const EMBED_TEXT_LIMIT = 4000
// The service's accent, as Discord wants it: an integer RGB.
const EMBED_COLOR = 0x2563eb

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text

interface DiscordMessage {
  embeds: {
    title: string
    description: string
    url?: string
    color: number
    timestamp?: string
    footer: { text: string }
  }[]
  /** No @everyone or role pings, whatever the text says. */
  allowed_mentions: { parse: never[] }
}

export const discord = defineChannel({
  id: 'discord',
  label: 'Discord',
  defaultOn: false,
  switchField: 'notifyDiscord',
  destination: {
    kind: 'webhook',
    field: 'discordWebhookUrl',
    webhook: {
      maxLength: MAX_DISCORD_WEBHOOK_URL,
      form: 'https://discord.com/api/webhooks/<id>/<token>',
      example: 'https://discord.com/api/webhooks/123456789012345678/abcDEF-ghi_jkl',
      problem: discordWebhookProblem,
      mask: maskDiscordWebhookUrl,
      setupHint: 'In Discord: channel settings, Integrations, Webhooks, Copy Webhook URL.',
    },
  },
  blockable: true,
  batchSize: 100,
  provider: (env) => {
    const kind = discordProvider(env)
    return kind === 'none' ? undefined : { env, kind }
  },
  /** An execute-webhook body: one embed linking the contest, timestamped with its start. */
  render: (t): DiscordMessage => ({
    embeds: [
      {
        title: clip(t.headline, EMBED_TITLE_LIMIT),
        description: clip(t.summary, EMBED_TEXT_LIMIT),
        ...(t.url && { url: t.url }),
        color: EMBED_COLOR,
        ...(t.startTime !== undefined && { timestamp: new Date(t.startTime).toISOString() }),
        footer: { text: 'Contest Alert Service' },
      },
    ],
    allowed_mentions: { parse: [] },
  }),
  send: async (p, { to, message }) => {
    const answer = await sendDiscord(p.env, { webhookUrl: to, message })
    return resultOf({ ...answer, dead: answer.unknownWebhook })
  },
})
