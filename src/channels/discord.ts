// The Discord channel: embeds posted to the channel webhook a user pasted. It needs no credentials
// of ours, so it is on unless DISCORD_ENABLED=false; a local run (DEV_OUTBOX) writes to the outbox
// instead, since it cannot reach Discord.
import { settings, type Env } from '../env.ts'

export type DiscordProvider = 'webhook' | 'outbox' | 'none'

export function discordProvider(env: Env): DiscordProvider {
  const s = settings(env)
  if (!s.DISCORD_ENABLED) return 'none'
  return s.DEV_OUTBOX ? 'outbox' : 'webhook'
}
