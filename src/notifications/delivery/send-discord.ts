// Sends one notification to the Discord channel webhook the recipient set.
import type { ChannelResult, SendRequest } from './send-request.ts'

export async function sendDiscordDelivery(req: SendRequest): Promise<ChannelResult> {
  if (!req.recipient.discordWebhookUrl) {
    return { ok: false, transient: false, error: 'The account has no Discord webhook' }
  }
  return { ok: false, transient: false, error: 'Discord sending is not built yet' }
}
