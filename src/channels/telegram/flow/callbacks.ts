// What a pressed button under a contest message does: Follow or Mute the contest, or snooze its
// reminder (one more, 10 minutes before the start), for the account linked to the presser's own chat (a person's private chat has the person's id), so the buttons
// under a group's announcement act for whoever presses them, as those in a private chat do. The
// answer is the short text Telegram shows over the chat.
import { findContest } from '../../../contests/queries.ts'
import type { Db } from '../../../db/client.ts'
import { setSubscription } from '../../../users/contest-subscriptions.ts'
import { userOfChat } from '../../../users/telegram-chat.ts'
import { readButton } from '../buttons.ts'

export const BUTTON_REPLIES = {
  stale: 'This button no longer works.',
  notLinked:
    'Link Telegram to your Contest Alerts account first (Settings, Telegram), then press again.',
  gone: 'This contest is no longer in the catalogue.',
} as const

// Telegram shows at most 200 characters.
const clip = (name: string) => (name.length > 120 ? `${name.slice(0, 119)}…` : name)

export interface ButtonPress {
  /** Who pressed: their private chat with the bot has this id. */
  fromId: string
  data: string | undefined
}

/** The snooze of a reminder for an account, answering its outcome in words (the notifier's). */
export type Snooze = (claim: { userId: string; contestId: string }) => Promise<string>

export async function pressButton(
  db: Db,
  press: ButtonPress,
  now: number,
  snooze: Snooze,
): Promise<string> {
  const button = readButton(press.data)
  if (!button) return BUTTON_REPLIES.stale
  const [userId, contest] = await Promise.all([
    userOfChat(db, press.fromId),
    findContest(db, button.contestId),
  ])
  if (!userId) return BUTTON_REPLIES.notLinked
  if (!contest) return BUTTON_REPLIES.gone
  if (button.action === 'snooze') return snooze({ userId, contestId: contest.id })
  if (!(await setSubscription(db, userId, contest.id, button.action, now))) {
    return BUTTON_REPLIES.notLinked
  }
  const name = clip(contest.name)
  return button.action === 'follow'
    ? `Following ${name}: its reminders come whatever your filters say.`
    : `Muted ${name}: no more reminders for it.`
}
