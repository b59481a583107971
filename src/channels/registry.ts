// The delivery channels, one plug-in module each: the one list every enumeration of channels
// derives from (preferences, request schemas, the fan-out, health, history, the settings page).
import type { Env } from '../env.ts'
import type { ChannelModule } from './define.ts'
import { discord } from './discord/index.ts'
import { email } from './email/index.ts'
import { push } from './push/index.ts'
import { slack } from './slack/index.ts'
import { telegram } from './telegram/index.ts'
import { whatsapp } from './whatsapp/index.ts'

/** In the order pages and answers list them. */
export const CHANNEL_MODULES = [email, whatsapp, push, telegram, discord, slack] as const

export type Channel = (typeof CHANNEL_MODULES)[number]['id']
export const CHANNELS = CHANNEL_MODULES.map((m) => m.id) as [Channel, ...Channel[]]

const BY_ID = new Map<string, ChannelModule>(CHANNEL_MODULES.map((m) => [m.id, m]))

export function channelModule(id: Channel): ChannelModule {
  return BY_ID.get(id)!
}

/** Whether `value` names a channel (stored data, query strings). */
export const isChannel = (value: unknown): value is Channel =>
  typeof value === 'string' && BY_ID.has(value)

/** A value per channel. */
export const perChannel = <T>(value: (module: ChannelModule, id: Channel) => T) =>
  Object.fromEntries(CHANNEL_MODULES.map((m) => [m.id, value(m, m.id)])) as Record<Channel, T>

/** The channels a user pastes a webhook URL for (Discord, Slack). */
export const WEBHOOK_CHANNELS = CHANNEL_MODULES.filter(
  (m): m is Extract<(typeof CHANNEL_MODULES)[number], { destination: { kind: 'webhook' } }> =>
    m.destination.kind === 'webhook',
)
export type WebhookChannel = (typeof WEBHOOK_CHANNELS)[number]['id']

/** The channels the service may turn off by itself (channel_blocks). */
export const BLOCKABLE_CHANNELS = CHANNEL_MODULES.filter((m) => m.blockable).map((m) => m.id)

/** Each channel's provider in this deployment, built once per invocation; absent: disabled. */
export type Providers = Partial<Record<Channel, unknown>>

export function channelProviders(env: Env): Providers {
  const providers: Providers = {}
  for (const m of CHANNEL_MODULES) {
    const provider = m.provider(env)
    if (provider !== undefined) providers[m.id] = provider
  }
  return providers
}

/** A channel without a provider is disabled: it is left out of new notifications. */
export const enabledChannels = (providers: Providers): Record<Channel, boolean> =>
  perChannel((_, id) => id in providers)
