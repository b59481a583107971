// The bindings and settings every notification job works with, taken from the Worker's env once.
import {
  channelProviders,
  enabledChannels,
  type Channel,
  type Providers,
} from '../channels/registry.ts'
import { createDb, type Db } from '../db/client.ts'
import { settings, type Env, type Settings } from '../env.ts'
import type { QueueProducer } from '../ports/queue.ts'

export interface Notifier {
  env: Env
  db: Db
  d1: D1Database
  queue: QueueProducer
  settings: Settings
  /** Each channel's provider, built once for the invocation; a channel without one is off. */
  providers: Providers
  enabled: Record<Channel, boolean>
}

export function notifier(env: Env): Notifier {
  const providers = channelProviders(env)
  return {
    env,
    db: createDb(env.DB),
    d1: env.DB,
    queue: env.NOTIFICATIONS_QUEUE,
    settings: settings(env),
    providers,
    enabled: enabledChannels(providers),
  }
}
