// `npm run telegram:webhook`: tells Telegram where the bot's updates go (APP_URL/telegram/webhook)
// and the secret to sign them with, from TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and APP_URL.
// (`npm run deploy` does the same after an upload.)
import { telegramBot, webhookUrl } from './lib/telegram-api.mjs'

const { APP_URL, TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET } = process.env

const missing = Object.entries({ APP_URL, TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET })
  .filter(([, value]) => !value)
  .map(([name]) => name)
if (missing.length > 0) {
  console.error(`Set ${missing.join(', ')} in the environment first.`)
  process.exit(2)
}
// Telegram accepts 1-256 characters of A-Z a-z 0-9 _ - as the secret token.
if (!/^[A-Za-z0-9_-]{1,256}$/.test(TELEGRAM_WEBHOOK_SECRET)) {
  console.error('TELEGRAM_WEBHOOK_SECRET may only hold A-Z, a-z, 0-9, _ and - (1-256 characters).')
  process.exit(2)
}

const bot = telegramBot({ token: TELEGRAM_BOT_TOKEN, apiUrl: process.env.TELEGRAM_API_URL })
try {
  const answer = await bot.setWebhook(APP_URL, TELEGRAM_WEBHOOK_SECRET)
  console.log(`Webhook set: ${webhookUrl(APP_URL)} (${answer.description ?? 'ok'})`)
} catch (error) {
  console.error(error.message)
  process.exit(1)
}
