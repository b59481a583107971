// The Telegram channel: Bot API messages (HTML, with the contest's buttons) to the chat a user
// linked with /start, or the local outbox, at the bot's pace (pace.ts); a chat that blocked the bot
// (403) is dead and unlinked, a group that became a supergroup moved.
import { escapeHtml } from '../../lib/html.ts'
import { defineChannel, notSent, resultOf } from '../define.ts'
import { sendTelegram, telegramProvider, type TelegramMessage } from './bot-api.ts'
import { contestButtons } from './buttons.ts'
import { telegramSlot } from './pace.ts'

// Telegram caps a message at 4,096 characters.
const TELEGRAM_LIMIT = 4000

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text

export const telegram = defineChannel({
  id: 'telegram',
  label: 'Telegram',
  defaultOn: false,
  switchField: 'notifyTelegram',
  destination: { kind: 'linked', field: 'telegramChatId' },
  blockable: true,
  batchSize: 100,
  provider: (env) => {
    const kind = telegramProvider(env)
    return kind === 'none' ? undefined : { env, kind }
  },
  /**
   * Bot API `parse_mode: HTML`: the headline in bold, the summary, and the contest's link; under
   * it Follow, Mute and Add to calendar when it is about one contest.
   */
  render: (t): Omit<TelegramMessage, 'chatId'> => {
    const link = t.url ? `\n\n<a href="${escapeHtml(t.url)}">Open the contest page</a>` : ''
    const buttons = contestButtons(t)
    return {
      text: `<b>${escapeHtml(clip(t.headline, 300))}</b>\n\n${escapeHtml(clip(t.summary, TELEGRAM_LIMIT - 600))}${link}`,
      ...(buttons && { buttons }),
    }
  },
  send: async (p, { to, message }) => {
    const wait = p.kind === 'bot-api' ? await telegramSlot(p.env) : undefined
    if (wait !== undefined) {
      const paced = notSent('transient', 'Waiting for the bot’s pace (30 messages a second)')
      return { ...paced, retryAfterSeconds: wait }
    }
    const answer = await sendTelegram(p.env, { chatId: to, ...message })
    return resultOf({ ...answer, dead: answer.blocked, movedTo: answer.migratedTo })
  },
})
