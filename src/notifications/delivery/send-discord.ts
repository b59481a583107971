// Sends one notification to the Discord channel webhook the recipient set; a webhook Discord no
// longer knows turns the channel off (users/discord-webhook.ts), so no later send tries it again.
import { sendDiscord } from '../../channels/discord.ts'
import { blockUnknownDiscordWebhook } from '../../users/discord-webhook.ts'
import { notificationKind } from '../kinds/registry.ts'
import type { ChannelResult, SendRequest } from './send-request.ts'

export async function sendDiscordDelivery(req: SendRequest): Promise<ChannelResult> {
  const webhookUrl = req.recipient.discordWebhookUrl
  if (!webhookUrl) {
    return { ok: false, transient: false, error: 'The account has no Discord webhook' }
  }
  const message = notificationKind(req.notification).discord(
    req.notification,
    req.recipient,
    req.content,
  )
  const result = await sendDiscord(req.env, { webhookUrl, message })
  if (result.unknownWebhook) {
    await blockUnknownDiscordWebhook(req.db, req.userId, webhookUrl, req.content.now)
  }
  return {
    ok: result.ok,
    providerMessageId: result.id,
    error: result.error,
    transient: result.transient,
    ...(result.retryAfterSeconds !== undefined && { retryAfterSeconds: result.retryAfterSeconds }),
  }
}
