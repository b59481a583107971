// The Telegram channel: Bot API messages to a linked chat when TELEGRAM_BOT_TOKEN is set, the
// local outbox when DEV_OUTBOX is on, otherwise disabled.
import { settings, type Env } from '../env.ts'

export type TelegramProvider = 'bot-api' | 'outbox' | 'none'

export function telegramProvider(env: Env): TelegramProvider {
  const s = settings(env)
  if (s.TELEGRAM_BOT_TOKEN) return 'bot-api'
  return s.DEV_OUTBOX ? 'outbox' : 'none'
}
