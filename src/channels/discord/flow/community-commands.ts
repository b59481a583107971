// `/contests subscribe|unsubscribe|settings|claim|rankupdates` (and `roles list|set|unset`,
// role-commands.ts)
// in a server: a channel's community announcements, changed only by members whose permissions in
// that channel (as Discord resolves the channel option for them, overwrites included) include
// Manage Channels or Administrator. A change is answered at
// once with a deferred reply and done after it, then the reply is edited through the interaction's
// webhook: Discord waits 3 seconds at most.
import type { Context } from 'hono'
import type { AppEnv } from '../../../app-env.ts'
import { claimWords, redeemClaimCode } from '../../../communities/claims.ts'
import { describeDestination } from '../../../communities/describe.ts'
import {
  findDestination,
  OtherServerError,
  setRankUpdates,
  subscribe,
  unsubscribe,
  type Place,
} from '../../../communities/destinations.ts'
import { checkFilters, DEFAULT_LEAD_TIMES, platformsNamed } from '../../../communities/filters.ts'
import { mapRole, roleChange, rolesWords } from './role-commands.ts'
import { createDb } from '../../../db/client.ts'
import { settings } from '../../../env.ts'
import { defer } from '../../../http/defer.ts'
import { log } from '../../../lib/log.ts'

const CHANNEL_MESSAGE = 4
const DEFERRED_CHANNEL_MESSAGE = 5
const EPHEMERAL = 1 << 6
const MANAGE_CHANNELS = 1n << 4n
const ADMINISTRATOR = 1n << 3n

export interface CommandOption {
  name: string
  /** Discord's option type: 1 a subcommand, 2 a group of them, 3 a string, 5 a boolean... */
  type?: number
  value?: unknown
  options?: CommandOption[]
}

/** A channel option as Discord resolves it (`data.resolved.channels`): a partial channel. */
export interface ResolvedChannel {
  name?: string
  /** The invoking member's permissions in this channel, overwrites included: a decimal bit set. */
  permissions?: string
  /** Its server, when Discord says (the documented partial channel does not carry it). */
  guildId?: string
}

export interface CommunityInteraction {
  applicationId: string
  token: string
  guildId?: string
  options: CommandOption[]
  /** The channels the options name, by id. */
  channels: Record<string, ResolvedChannel>
  /** The channel the command was typed in: `/contests roles list` without a channel reads it. */
  here?: string
  /** The member who used the command (`/contests handle` registers their handle). */
  userId?: string
}

/** A private reply, seen only by the member who used the command. */
export const privately = (content: string) => ({
  type: CHANNEL_MESSAGE,
  data: { content, flags: EPHEMERAL, allowed_mentions: { parse: [] } },
})

const optionValue = (options: CommandOption[], name: string) => {
  const value = options.find((o) => o.name === name)?.value
  return typeof value === 'string' ? value : undefined
}

function mayManage(permissions: string | undefined): boolean {
  if (!permissions || !/^\d{1,30}$/.test(permissions)) return false
  const bits = BigInt(permissions)
  return (bits & (MANAGE_CHANNELS | ADMINISTRATOR)) !== 0n
}

/** The change asked for, checked; a refusal in words otherwise. */
function subscription(options: CommandOption[]) {
  const named = platformsNamed((optionValue(options, 'platforms') ?? '').split(/[\s,]+/))
  if ('unknown' in named || named.platforms.length === 0) {
    const word = 'unknown' in named ? named.unknown : '(none)'
    return { refused: `No platform is called ${word}; name them as codeforces atcoder.` }
  }
  const lead = optionValue(options, 'lead')
  const leadTimes = lead
    ? lead
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number)
    : DEFAULT_LEAD_TIMES
  const checked = checkFilters({
    platforms: named.platforms,
    contestTypes: [],
    leadTimes,
    includeWords: [],
    excludeWords: [],
    minDuration: null,
  })
  if (!checked.ok) return { refused: `${checked.error}.` }
  return { platforms: checked.filters.platforms, leadTimes: checked.filters.leadTimes }
}

/** Edits the deferred reply (the interaction's webhook needs no bot token). */
export async function editReply(
  c: Context<AppEnv>,
  i: Pick<CommunityInteraction, 'applicationId' | 'token'>,
  content: string,
) {
  const base = settings(c.env).DISCORD_API_URL.replace(/\/+$/, '')
  const url = `${base}/webhooks/${i.applicationId}/${i.token}/messages/@original`
  const res = await fetch(url, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content, allowed_mentions: { parse: [] } }),
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => error)
  if (!(res instanceof Response) || !res.ok) {
    log.warn('discord-reply-failed', { status: res instanceof Response ? res.status : undefined })
  }
}

export async function communityCommand(c: Context<AppEnv>, sub: string, i: CommunityInteraction) {
  if (!i.guildId) return privately('Use this command in a server.')
  // Members read the roles of the channel they are in without naming it.
  const inHere = sub === 'roles list' && optionValue(i.options, 'channel') === undefined
  const channelId = inHere ? i.here : optionValue(i.options, 'channel')
  if (!channelId || !/^\d{17,20}$/.test(channelId)) return privately('Choose a channel.')
  // Discord resolves every channel option it sends; one it did not is not a channel of this server.
  const target = inHere
    ? { name: undefined }
    : Object.hasOwn(i.channels, channelId)
      ? i.channels[channelId]
      : undefined
  if (!target) return privately('Choose a channel.')
  // Absent, the server is this one's by Discord's resolution; the destination's key holds it too.
  if (target.guildId !== undefined && target.guildId !== i.guildId) {
    return privately('Choose a channel of this server.')
  }
  const place: Place = {
    channel: 'discord',
    chatId: channelId,
    guildId: i.guildId,
    title: inHere ? 'This channel' : `#${(target.name ?? channelId).slice(0, 100)}`,
  }
  const db = createDb(c.env.DB)
  if (sub === 'settings') {
    const found = await findDestination(db, place)
    return privately(found ? describeDestination(found) : `${place.title} has no announcements.`)
  }
  if (sub === 'roles list') {
    const found = await findDestination(db, place)
    return privately(
      found ? rolesWords(found, place.title) : `${place.title} has no announcements.`,
    )
  }
  // The rights in the target channel, not in the one the command was typed in.
  if (!mayManage(target.permissions)) {
    return privately(`Only members who may manage ${place.title} can change its announcements.`)
  }
  let work: () => Promise<string>
  if (sub === 'subscribe') {
    const choice = subscription(i.options)
    if ('refused' in choice) return privately(choice.refused ?? 'Not a subscription.')
    const roleId = optionValue(i.options, 'role') ?? null
    const events = i.options.find((o) => o.name === 'events')?.value
    const cleanup = i.options.find((o) => o.name === 'cleanup')?.value
    const asked = {
      ...choice,
      roleId,
      ...(typeof events === 'boolean' && { events }),
      ...(typeof cleanup === 'boolean' && { cleanup }),
    }
    work = async () => {
      const row = await subscribe(db, place, asked, Date.now()).catch((error: unknown) => {
        if (error instanceof OtherServerError) return undefined
        throw error
      })
      if (!row) return `${place.title} is subscribed from another server; nothing was changed.`
      return `Subscribed ${place.title}. ${describeDestination(row)}`
    }
  } else if (sub === 'roles set' || sub === 'roles unset') {
    const change = roleChange(sub, i)
    if ('refused' in change) return privately(change.refused)
    work = () => mapRole(db, place, change)
  } else if (sub === 'claim') {
    const code = optionValue(i.options, 'code') ?? ''
    work = async () => claimWords(await redeemClaimCode(db, code, place, Date.now()))
  } else if (sub === 'rankupdates') {
    const on = optionValue(i.options, 'state') === 'on'
    work = async () => {
      const row = await setRankUpdates(db, place, on, Date.now())
      if (!row) return `${place.title} has no announcements; subscribe it first.`
      return on
        ? `Rank updates on: after each contest, ${place.title} gets its members' results. ` +
            'Members add their handle with /contests handle in the channel.'
        : `Rank updates off in ${place.title}.`
    }
  } else if (sub === 'unsubscribe') {
    work = async () =>
      (await unsubscribe(db, place))
        ? `Unsubscribed: no more announcements in ${place.title}.`
        : `${place.title} has no announcements.`
  } else return privately('This command is not one the bot knows.')
  await defer(c, async () => {
    const content = await work().catch((error: unknown) => {
      log.error('discord-command-failed', { error })
      return 'Something went wrong; nothing was changed. Try again.'
    })
    await editReply(c, i, content)
  })
  return { type: DEFERRED_CHANNEL_MESSAGE, data: { flags: EPHEMERAL } }
}
