// The "Ping me for …" button under an announcement (a component interaction whose custom_id names
// the mapping's key, communities/roles.ts): the pressing member is given the channel's role for it,
// or, holding it already, has it taken away. The press is answered at once with a private deferred
// reply, then the role is changed with the bot's token and the reply edited to say what happened,
// including Discord's refusal when the bot lacks Manage Roles or a role above the one it gives.
import type { Context } from 'hono'
import type { AppEnv } from '../../../app-env.ts'
import { findDestination } from '../../../communities/destinations.ts'
import { isRoleId, keyName, ROLE_BUTTON_PREFIX } from '../../../communities/roles.ts'
import { createDb } from '../../../db/client.ts'
import { defer } from '../../../http/defer.ts'
import { log } from '../../../lib/log.ts'
import { setMemberRole, type GuildAnswer } from '../guild-api.ts'
import { editReply, privately } from './community-commands.ts'

const DEFERRED_CHANNEL_MESSAGE = 5
const EPHEMERAL = 1 << 6

export interface ButtonPress {
  applicationId: string
  token: string
  guildId?: string
  channelId?: string
  customId: string
  userId?: string
  /** The roles the member holds, as the interaction's member object lists them. */
  memberRoles: readonly string[]
}

function words(answer: GuildAnswer, give: boolean, role: string, name: string): string {
  if (answer.ok) {
    return give
      ? `You have ${role} now: announcements of ${name} here ping you. Press again to stop.`
      : `${role} is taken away: announcements of ${name} no longer ping you. Press again to get it back.`
  }
  if (answer.kind === 'missing-permissions') {
    return (
      `I cannot ${give ? 'give you' : 'take away'} ${role}: the bot needs the Manage Roles ` +
      'permission and a role of its own above it. Ask the server’s administrators.'
    )
  }
  if (answer.kind === 'unknown') return `${role} no longer exists on this server.`
  return 'Discord did not answer in time; press the button again in a moment.'
}

export async function pressRoleButton(c: Context<AppEnv>, press: ButtonPress) {
  if (!press.customId.startsWith(ROLE_BUTTON_PREFIX)) {
    return privately('This button is not one the bot knows.')
  }
  const { guildId, channelId, userId } = press
  if (!guildId || !channelId || !userId) return privately('Use this button in a server.')
  const key = press.customId.slice(ROLE_BUTTON_PREFIX.length)
  const place = { channel: 'discord' as const, chatId: channelId, guildId }
  // The mapping as it is now: a button of an older announcement gives only a role still mapped.
  const found = await findDestination(createDb(c.env.DB), place)
  const roleId = found && Object.hasOwn(found.roles, key) ? found.roles[key] : undefined
  if (!roleId || !isRoleId(roleId)) {
    return privately(`${keyName(key)} has no role in this channel any more.`)
  }
  const give = !press.memberRoles.includes(roleId)
  await defer(c, async () => {
    const answer = await setMemberRole(c.env, { guildId, userId, roleId }, give).catch(
      (error: unknown): GuildAnswer => ({ ok: false, kind: 'transient', error: String(error) }),
    )
    if (!answer.ok) log.warn('discord-role-refused', { kind: answer.kind, error: answer.error })
    await editReply(c, press, words(answer, give, `<@&${roleId}>`, keyName(key)))
  })
  return { type: DEFERRED_CHANNEL_MESSAGE, data: { flags: EPHEMERAL } }
}
