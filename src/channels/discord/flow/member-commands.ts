// `/contests handle <platform> [handle] [remove]` in a channel with rank updates: any member
// registers their judge handle for the channel's rank posts, gets the proof token privately
// (ephemeral), and runs the command again to have it checked; `remove` takes it off, and no handle
// lists theirs. Checking asks the judge, so the reply is deferred and edited after it.
import type { Context } from 'hono'
import type { AppEnv } from '../../../app-env.ts'
import { findDestination } from '../../../communities/destinations.ts'
import { memberCommand, type MemberAsk } from '../../../communities/members.ts'
import { createDb } from '../../../db/client.ts'
import { defer } from '../../../http/defer.ts'
import { log } from '../../../lib/log.ts'
import { editReply, privately, type CommunityInteraction } from './community-commands.ts'

const DEFERRED_CHANNEL_MESSAGE = 5
const EPHEMERAL = 1 << 6

const SNOWFLAKE = /^\d{17,20}$/

export async function memberHandle(c: Context<AppEnv>, _sub: string, i: CommunityInteraction) {
  if (!i.guildId) return privately('Use this command in a server.')
  const value = (name: string) => i.options.find((o) => o.name === name)?.value
  const channelId = i.here
  const memberId = i.userId
  if (!channelId || !SNOWFLAKE.test(channelId) || !memberId || !SNOWFLAKE.test(memberId)) {
    return privately('Use this command in the channel whose rank posts should show you.')
  }
  const platform = typeof value('platform') === 'string' ? String(value('platform')) : ''
  const handle = typeof value('handle') === 'string' ? String(value('handle')).trim() : ''
  const ask: MemberAsk =
    value('remove') === true
      ? { kind: 'remove', platform }
      : handle
        ? { kind: 'register', platform, handle }
        : { kind: 'list' }
  const db = createDb(c.env.DB)
  await defer(c, async () => {
    const content = await (async () => {
      const destination = await findDestination(db, {
        channel: 'discord',
        chatId: channelId,
        guildId: i.guildId,
      })
      const place = {
        destination,
        memberId,
        // Discord identities are linked to no account: the profile token proves the handle.
        userId: null,
        again: (p: string, h: string) => `/contests handle platform:${p} handle:${h}`,
      }
      return (await memberCommand(c.env, db, place, ask, Date.now())).text
    })().catch((error: unknown) => {
      log.error('discord-command-failed', { error })
      return 'Something went wrong; nothing was changed. Try again.'
    })
    await editReply(c, i, content)
  })
  // Every answer is the member's own: the token, and the state of their handle.
  return { type: DEFERRED_CHANNEL_MESSAGE, data: { flags: EPHEMERAL } }
}
