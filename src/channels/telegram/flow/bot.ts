// What the bot does with a message it is sent: `/start <token>` links the chat to the token's
// account, `/stop` unlinks it; the answer is the reply to send to the chat, or none.
import type { Db } from '../../../db/client.ts'
import { linkChat, unlinkChat } from '../../../users/telegram-chat.ts'
import { linkTokenHash } from '../../../users/telegram-links.ts'

// `/start@MyBot <token>` is what a group or a client that names the bot sends.
const START = /^\/start(?:@\w+)?(?:\s+(\S+))?\s*$/
const STOP = /^\/stop(?:@\w+)?\s*$/

export const REPLIES = {
  linked:
    'Linked: contest reminders will arrive in this chat. Send /stop to turn them off, or unlink ' +
    'Telegram in your profile.',
  expired:
    'This link has expired or was already used. Open a new Telegram link from your profile ' +
    '(links last 15 minutes).',
  stopped: 'Unlinked: no more contest reminders in this chat. Link it again from your profile.',
  notLinked: 'This chat is not linked to an account.',
} as const

export interface BotMessage {
  chatId: string
  text: string | undefined
}

/** Acts on the message and says what to reply; other messages get no reply. */
export async function handleBotMessage(
  db: Db,
  message: BotMessage,
  now: number,
): Promise<string | undefined> {
  const text = message.text?.trim() ?? ''
  const start = START.exec(text)
  if (start) {
    const hash = start[1] ? await linkTokenHash(start[1]) : undefined
    const linked = hash ? await linkChat(db, hash, message.chatId, now) : undefined
    return linked ? REPLIES.linked : REPLIES.expired
  }
  if (STOP.test(text)) {
    return (await unlinkChat(db, message.chatId, now)) ? REPLIES.stopped : REPLIES.notLinked
  }
  return undefined
}
