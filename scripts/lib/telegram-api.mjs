// The Telegram Bot API calls of the tooling: where the bot's updates go (setWebhook with its
// secret token) and the commands Telegram's clients offer. Used by `npm run telegram:webhook` and
// `npm run deploy`; TELEGRAM_API_URL points them at a stand-in.

/** The commands the bot answers (src/channels/telegram/flow/bot.ts). */
export const BOT_COMMANDS = [
  { command: 'upcoming', description: 'The next contests (optionally of one platform)' },
  { command: 'next', description: 'The next contest (optionally of one platform)' },
  { command: 'subscribe', description: 'Announce contests of these platforms in this chat' },
  { command: 'settings', description: 'What this chat is told, and how to change it' },
  { command: 'unsubscribe', description: 'No more contest announcements in this chat' },
  { command: 'claim', description: 'Manage this chat’s announcements from your account' },
  { command: 'rankupdates', description: 'Post members’ results after each contest (on or off)' },
  { command: 'handle', description: 'Show your judge handle in this group’s result posts' },
  {
    command: 'start',
    description: 'Link this chat to your account (from the link in your profile)',
  },
  { command: 'stop', description: 'Stop contest reminders in this chat' },
  { command: 'help', description: 'What the bot answers' },
]

/** Messages and posts in channels (the commands), and presses on the bot's buttons. */
export const ALLOWED_UPDATES = ['message', 'channel_post', 'callback_query']

export const webhookUrl = (appUrl) => `${appUrl.replace(/\/+$/, '')}/telegram/webhook`

/** A Bot API client for one bot; a refused call throws with Telegram's description. */
export function telegramBot({ token, apiUrl }) {
  const base = `${(apiUrl || 'https://api.telegram.org').replace(/\/+$/, '')}/bot${token}`
  async function call(method, body) {
    const res = await fetch(`${base}/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body ?? {}),
      signal: AbortSignal.timeout(10_000),
    })
    const answer = await res.json().catch(() => ({}))
    if (!res.ok || answer.ok !== true) {
      // The token is part of the URL: the message names the method only.
      throw new Error(
        `Telegram refused ${method} (${res.status}): ${answer.description ?? 'no reason'}`,
      )
    }
    return answer
  }
  return {
    /** Points the bot's updates at APP_URL/telegram/webhook, signed with `secret`. */
    setWebhook: (appUrl, secret) =>
      call('setWebhook', {
        url: webhookUrl(appUrl),
        secret_token: secret,
        allowed_updates: ALLOWED_UPDATES,
      }),
    /** Where the updates go now (`url` is empty when no webhook is set). */
    webhookInfo: async () => (await call('getWebhookInfo')).result,
    commands: async () => (await call('getMyCommands')).result,
    setCommands: (commands) => call('setMyCommands', { commands }),
  }
}
