// `npm run telegram:webhook`: tells Telegram where the bot's updates go (APP_URL/telegram/webhook)
// and the secret to sign them with, from TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and APP_URL.
const { APP_URL, TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET } = process.env
const apiUrl = (process.env.TELEGRAM_API_URL || 'https://api.telegram.org').replace(/\/+$/, '')

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

const url = `${APP_URL.replace(/\/+$/, '')}/telegram/webhook`
const res = await fetch(`${apiUrl}/bot${TELEGRAM_BOT_TOKEN}/setWebhook`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({
    url,
    secret_token: TELEGRAM_WEBHOOK_SECRET,
    // Only messages: /start and /stop are all the bot reads.
    allowed_updates: ['message'],
  }),
  signal: AbortSignal.timeout(10_000),
})
const answer = await res.json().catch(() => ({}))
if (!res.ok || answer.ok !== true) {
  console.error(
    `Telegram refused the webhook (${res.status}): ${answer.description ?? 'no reason'}`,
  )
  process.exit(1)
}
console.log(`Webhook set: ${url} (${answer.description ?? 'ok'})`)
