// Sends one notification to the recipient's linked Telegram chat; a chat that blocked the bot is
// unlinked and Telegram turned off for the user (channelStatus 'bot-blocked').
import { sendTelegram } from '../../channels/telegram.ts'
import { blockTelegramChat } from '../../users/telegram-chat.ts'
import { notificationKind } from '../kinds/registry.ts'
import type { ChannelResult, SendRequest } from './send-request.ts'

export async function sendTelegramDelivery(req: SendRequest): Promise<ChannelResult> {
  const chatId = req.recipient.telegramChatId
  if (!chatId) {
    return { ok: false, transient: false, error: 'The account has no linked Telegram chat' }
  }
  const text = notificationKind(req.notification).telegram(
    req.notification,
    req.recipient,
    req.content,
  )
  const result = await sendTelegram(req.env, { chatId, text })
  if (result.blocked) await blockTelegramChat(req.db, req.userId, chatId, req.content.now)
  return {
    ok: result.ok,
    providerMessageId: result.id,
    error: result.error,
    transient: result.transient,
    retryAfterSeconds: result.retryAfterSeconds,
  }
}
