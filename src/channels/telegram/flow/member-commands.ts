// Rank updates in a Telegram group: `/rankupdates on|off` (administrators, as /subscribe) and
// `/handle <platform> <handle>` for any member, whose proof token goes to the member's private
// chat with the bot (run `/handle` again in the group to have it checked); a member whose
// Telegram is linked to an account holding the handle proven is proven at once. `/handle remove
// [platform]` takes it off, `/handle` lists theirs, and a member who leaves the group is removed.
import { findDestination, setRankUpdates, type Place } from '../../../communities/destinations.ts'
import { memberCommand, type MemberAsk } from '../../../communities/members.ts'
import type { Db } from '../../../db/client.ts'
import type { Env } from '../../../env.ts'
import { escapeHtml } from '../../../lib/html.ts'
import { removeMember } from '../../../results/community-members.ts'
import { userOfChat } from '../../../users/telegram-chat.ts'
import { sendTelegram } from '../bot-api.ts'
import { mayChange, type CommandChat } from './community-commands.ts'

const GROUPS = ['group', 'supergroup']
const NO_DESTINATION = 'This chat has no announcements. /subscribe starts them.'

const place = (chat: CommandChat): Place => ({
  channel: 'telegram',
  chatId: chat.chatId,
  title: chat.title.slice(0, 100),
})

function memberAsk(words: string[]): MemberAsk {
  if (words.length === 0) return { kind: 'list' }
  if (words[0].toLowerCase() === 'remove') {
    return { kind: 'remove', ...(words[1] && { platform: words[1].toLowerCase() }) }
  }
  return { kind: 'register', platform: words[0], handle: words[1] ?? '' }
}

/** The reply (plain text) to /rankupdates or /handle, or undefined for any other command. */
export async function memberCommands(
  env: Env,
  db: Db,
  name: string,
  arg: string,
  chat: CommandChat,
  now: number,
): Promise<string | undefined> {
  if (name !== 'rankupdates' && name !== 'handle') return undefined
  const words = arg.trim().split(/\s+/).filter(Boolean)
  if (name === 'rankupdates') {
    const want = words[0]?.toLowerCase()
    if (want !== 'on' && want !== 'off') {
      const d = await findDestination(db, place(chat))
      if (!d) return NO_DESTINATION
      return `Rank updates are ${d.rankUpdates ? 'on' : 'off'} here. /rankupdates on|off changes it.`
    }
    if (!(await mayChange(env, chat))) {
      return 'Only an administrator of this group can change its rank updates.'
    }
    const row = await setRankUpdates(db, place(chat), want === 'on', now)
    if (!row) return NO_DESTINATION
    return want === 'on'
      ? 'Rank updates on: after each contest, members’ results are posted here. ' +
          'Members add their handle with /handle platform handle.'
      : 'Rank updates off.'
  }
  if (!GROUPS.includes(chat.type) || chat.fromId === undefined) {
    return 'Use /handle in the group whose rank posts should show you.'
  }
  const memberId = chat.fromId
  const [destination, userId] = await Promise.all([
    findDestination(db, place(chat)),
    userOfChat(db, memberId),
  ])
  const answer = await memberCommand(
    env,
    db,
    { destination, memberId, userId, again: (p, h) => `/handle ${p} ${h}` },
    memberAsk(words),
    now,
  )
  if (!answer.private) return answer.text
  // The member's private chat with the bot has the member's id; it takes messages once the
  // member has pressed Start there.
  const sent = await sendTelegram(env, { chatId: memberId, text: escapeHtml(answer.text) })
  return sent.ok
    ? 'I sent you the proof token in a private message.'
    : 'Open a private chat with me and press Start, then send the command here again: ' +
        'the proof token goes there.'
}

/** A member left the group: their handles are no longer in its rank posts. */
export async function memberLeft(db: Db, chat: CommandChat, memberId: string) {
  const d = await findDestination(db, place(chat))
  if (d) await removeMember(db, d.id, memberId)
}
