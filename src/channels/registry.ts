// Which delivery channels exist and which of them can send in this deployment.
import type { Env } from '../env.ts'
import { CHANNELS, type Channel } from './channel-names.ts'
import { discordProvider } from './discord.ts'
import { emailProvider } from './email.ts'
import { pushProvider } from './push.ts'
import { telegramProvider } from './telegram.ts'
import { whatsappProvider } from './whatsapp.ts'

// Re-exported: the rest of the app names channels through the registry.
export { CHANNELS, type Channel }

/** The provider behind each channel: a real API, the local outbox, or 'none' (disabled). */
export function channelProviders(env: Env): Record<Channel, string> {
  return {
    email: emailProvider(env),
    whatsapp: whatsappProvider(env),
    push: pushProvider(env),
    telegram: telegramProvider(env),
    discord: discordProvider(env),
  }
}

/** A channel without a provider is disabled: it is left out of new notifications. */
export function enabledChannels(env: Env): Record<Channel, boolean> {
  const providers = channelProviders(env)
  return Object.fromEntries(CHANNELS.map((c) => [c, providers[c] !== 'none'])) as Record<
    Channel,
    boolean
  >
}
