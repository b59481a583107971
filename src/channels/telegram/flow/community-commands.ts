// The bot's community commands, in the chat that takes the announcements: `/subscribe
// <platform…>`, `/unsubscribe`, `/settings [what values…]` and `/claim <code>` (an account's code
// from the web app's Communities page). In a group or supergroup only its
// administrators change anything (getChatMember); in a private chat its one person does, and in a
// channel only administrators can post at all. `/settings` alone shows what is set, to anyone.
import {
  findDestination,
  subscribe,
  unsubscribe,
  updateFilters,
  type Place,
} from '../../../communities/destinations.ts'
import { describeDestination } from '../../../communities/describe.ts'
import {
  checkFilters,
  filtersOf,
  platformsNamed,
  type CommunityFilters,
} from '../../../communities/filters.ts'
import { claimWords, redeemClaimCode } from '../../../communities/claims.ts'
import type { Db } from '../../../db/client.ts'
import type { Env } from '../../../env.ts'
import { isChatAdmin } from '../bot-api.ts'

export interface CommandChat {
  chatId: string
  /** private, group, supergroup or channel. */
  type: string
  title: string
  /** The sender (absent for a channel's post, whose author is the channel). */
  fromId?: string
  /** The forum topic the command was sent in (a place of its own), and its name. */
  threadId?: string
  threadTitle?: string
}

const ADMINS_ONLY = 'Only an administrator of this group can change its contest announcements.'
const USAGE_SUBSCRIBE =
  'Name the platforms: /subscribe codeforces atcoder (every one is listed by /help).'
const SETTINGS_USAGE =
  'Change one thing at a time: /settings lead 60 1440 (minutes before the start), ' +
  '/settings types div2 abc (or all), /settings include words… (or none), ' +
  '/settings exclude words… (or none), /settings min 90 (minutes, or none), ' +
  '/settings platforms codeforces atcoder, /settings cleanup on (or off).'

/** Who may change the chat's announcements, or unlink it from an account (/stop). */
export async function mayChange(env: Env, chat: CommandChat): Promise<boolean> {
  if (chat.type === 'private' || chat.type === 'channel') return true
  return chat.fromId !== undefined && isChatAdmin(env, chat.chatId, chat.fromId)
}

const place = (chat: CommandChat): Place => ({
  channel: 'telegram',
  chatId: chat.chatId,
  ...(chat.threadId && { threadId: chat.threadId, threadTitle: chat.threadTitle?.slice(0, 100) }),
  title: chat.title.slice(0, 100),
})

const wordsOf = (arg: string) => arg.trim().split(/\s+/).filter(Boolean)

/** The change `/settings <what> <values…>` asks for, or why it is not one. */
function settingsChange(
  words: string[],
): (Partial<CommunityFilters> & { cleanup?: boolean }) | string {
  const [what, ...values] = words
  const none = values.length === 1 && ['none', 'all'].includes(values[0].toLowerCase())
  switch (what?.toLowerCase()) {
    case 'lead':
      return { leadTimes: values.map(Number) }
    case 'types':
      return { contestTypes: none ? [] : values }
    case 'include':
      return { includeWords: none ? [] : values.map((v) => v.toLowerCase()) }
    case 'exclude':
      return { excludeWords: none ? [] : values.map((v) => v.toLowerCase()) }
    case 'min':
      return { minDuration: none ? null : Number(values[0]) }
    case 'cleanup':
      if (values.length === 1 && ['on', 'off'].includes(values[0].toLowerCase())) {
        return { cleanup: values[0].toLowerCase() === 'on' }
      }
      return SETTINGS_USAGE
    case 'platforms': {
      const named = platformsNamed(values)
      return 'unknown' in named ? `No platform is called ${named.unknown}.` : named
    }
  }
  return SETTINGS_USAGE
}

/** The reply to a community command (plain text), or undefined when `name` is none of them. */
export async function communityCommand(
  env: Env,
  db: Db,
  name: string,
  arg: string,
  chat: CommandChat,
  now: number,
): Promise<string | undefined> {
  if (!['subscribe', 'unsubscribe', 'settings', 'claim'].includes(name)) return undefined
  const words = wordsOf(arg)
  const current = await findDestination(db, place(chat))
  if (name === 'settings' && words.length === 0) {
    return current
      ? describeDestination(current)
      : 'This chat has no announcements. /subscribe starts them.'
  }
  if (!(await mayChange(env, chat))) return ADMINS_ONLY
  if (name === 'claim')
    return claimWords(await redeemClaimCode(db, words[0] ?? '', place(chat), now))
  if (name === 'unsubscribe') {
    return (await unsubscribe(db, place(chat)))
      ? 'Unsubscribed: no more contest announcements here.'
      : 'This chat has no announcements.'
  }
  if (name === 'subscribe') {
    // `cleanup` among the platforms: announcements deleted after their contests end.
    const cleanup = words.some((w) => w.toLowerCase() === 'cleanup') || undefined
    const platforms = words.filter((w) => w.toLowerCase() !== 'cleanup')
    if (platforms.length === 0) return USAGE_SUBSCRIBE
    const named = platformsNamed(platforms)
    if ('unknown' in named) return `No platform is called ${named.unknown}. ${USAGE_SUBSCRIBE}`
    const choice = { platforms: named.platforms, ...(cleanup && { cleanup }) }
    const row = await subscribe(db, place(chat), choice, now)
    return `Subscribed. ${describeDestination(row)}\n/settings changes this, /unsubscribe stops it.`
  }
  if (!current) return 'This chat has no announcements. /subscribe starts them.'
  const asked = settingsChange(words)
  if (typeof asked === 'string') return asked
  const { cleanup, ...change } = asked
  const checked = checkFilters({ ...filtersOf(current), ...change })
  if (!checked.ok) return `${checked.error}. ${SETTINGS_USAGE}`
  const row = await updateFilters(
    db,
    place(chat),
    { ...checked.filters, ...(cleanup !== undefined && { cleanup }) },
    now,
  )
  return row ? `Saved. ${describeDestination(row)}` : 'This chat has no announcements.'
}
