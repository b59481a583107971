// Sends one notification to the recipient's linked Telegram chat.
import type { ChannelResult, SendRequest } from './send-request.ts'

export async function sendTelegramDelivery(req: SendRequest): Promise<ChannelResult> {
  if (!req.recipient.telegramChatId) {
    return { ok: false, transient: false, error: 'The account has no linked Telegram chat' }
  }
  return { ok: false, transient: false, error: 'Telegram sending is not built yet' }
}
