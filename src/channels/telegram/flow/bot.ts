// What the bot does with a command it is sent, in a private chat, a group or a channel: `/start
// <token>` links the chat to the token's account and `/stop` unlinks it; `/upcoming [platform]` and
// `/next [platform]` answer from the catalogue; `/subscribe`, `/unsubscribe` and `/settings` manage
// the chat's community announcements (community-commands.ts), `/rankupdates` and `/handle` its
// rank posts (member-commands.ts); `/help` lists them. The answer is the
// reply to send as Bot API HTML, every text the service did not write itself escaped; or none (a
// command for another bot, or no command at all).
import { listUpcoming } from '../../../contests/queries.ts'
import type { Db } from '../../../db/client.ts'
import type { Env } from '../../../env.ts'
import { escapeHtml } from '../../../lib/html.ts'
import { isPlatform, platformName, PLATFORMS, type Platform } from '../../../platforms/registry.ts'
import { linkChat, unlinkChat } from '../../../users/telegram-chat.ts'
import { linkTokenHash } from '../../../users/telegram-links.ts'
import { communityCommand, mayChange, type CommandChat } from './community-commands.ts'
import { contestListText } from './contest-list.ts'
import { memberCommands, memberLeft } from './member-commands.ts'

// `/upcoming@MyBot codeforces`: a group, or a client that names the bot, adds its @username.
const COMMAND = /^\/([a-z_]+)(?:@(\w+))?(?:\s+([\s\S]*))?$/i

// How many contests /upcoming lists: enough for a week, short enough to read in a chat.
const UPCOMING_LIMIT = 10

export const REPLIES = {
  linked:
    'Linked: contest reminders will arrive in this chat. Send /stop to turn them off, or unlink ' +
    'Telegram in your profile.',
  expired:
    'This link has expired or was already used. Open a new Telegram link from your profile ' +
    '(links last 15 minutes).',
  stopped: 'Unlinked: no more contest reminders in this chat. Link it again from your profile.',
  notLinked: 'This chat is not linked to an account.',
  stopAdminsOnly: 'Only an administrator of this group can unlink it from an account.',
  help:
    'Contest Alert Service\n\n' +
    '/upcoming [platform] – the next contests, of every platform or one\n' +
    '/next [platform] – the next contest\n' +
    '/subscribe platform… [cleanup] – announce contests of these platforms here (in a forum ' +
    'topic: in that topic; cleanup deletes each announcement after its contest; administrators)\n' +
    '/settings – what is announced here; /settings lead 60 1440 and more change it\n' +
    '/unsubscribe – no more announcements here\n' +
    '/claim code – manage them from your account (the code of the Communities page)\n' +
    '/rankupdates on|off – members’ results after each contest (administrators)\n' +
    '/handle platform handle – your handle in those posts, proven by a profile token\n' +
    '/stop – no more of your own reminders in this chat\n' +
    '/help – this list\n\n' +
    `Platforms: ${PLATFORMS.join(', ')}`,
} as const

export interface BotMessage extends CommandChat {
  text: string | undefined
  /** The bot's own @username: a command naming another bot is not for it. */
  botUsername?: string
  /** The member a "left the group" message is about (left_chat_member). */
  leftMemberId?: string
}

/** The platform a command's argument names, or why it names none (HTML: it quotes the word). */
function platformOf(arg: string): { platform?: Platform; refused?: string } {
  const word = arg.trim().split(/\s+/)[0]?.toLowerCase() ?? ''
  if (word === '') return {}
  return isPlatform(word)
    ? { platform: word }
    : { refused: `No platform is called ${escapeHtml(word)}. /help lists them.` }
}

async function upcoming(db: Db, arg: string, limit: number, now: number) {
  const { platform, refused } = platformOf(arg)
  if (refused) return refused
  const rows = await listUpcoming(db, platform, now, limit)
  const what = platform ? `${platformName(platform)} contests` : 'contests'
  const title = limit === 1 ? `Next of the ${what}` : `Upcoming ${what}`
  return contestListText(title, rows, `No upcoming ${what} in the catalogue.`, now)
}

/** Acts on the command and says what to reply; other messages get no reply. */
export async function handleBotMessage(
  env: Env,
  db: Db,
  message: BotMessage,
  now: number,
): Promise<string | undefined> {
  if (message.leftMemberId) await memberLeft(db, message, message.leftMemberId)
  const match = COMMAND.exec(message.text?.trim() ?? '')
  if (!match) return undefined
  const [, name, addressee, arg = ''] = match
  if (addressee && addressee.toLowerCase() !== message.botUsername?.toLowerCase()) return undefined
  switch (name.toLowerCase()) {
    case 'start': {
      const token = arg.trim().split(/\s+/)[0]
      const hash = token ? await linkTokenHash(token) : undefined
      const linked = hash ? await linkChat(db, hash, message.chatId, now) : undefined
      return linked ? REPLIES.linked : REPLIES.expired
    }
    case 'stop':
      // Whoever linked a group, its members other than administrators may not unlink it.
      if (!(await mayChange(env, message))) return REPLIES.stopAdminsOnly
      return (await unlinkChat(db, message.chatId, now)) ? REPLIES.stopped : REPLIES.notLinked
    case 'upcoming':
      return upcoming(db, arg, UPCOMING_LIMIT, now)
    case 'next':
      return upcoming(db, arg, 1, now)
    case 'help':
      return REPLIES.help
  }
  // Plain text quoting what the chat typed (platforms, words, values): escaped as a whole.
  const rank = await memberCommands(env, db, name.toLowerCase(), arg, message, now)
  if (rank !== undefined) return escapeHtml(rank)
  const reply = await communityCommand(env, db, name.toLowerCase(), arg, message, now)
  return reply === undefined ? undefined : escapeHtml(reply)
}
