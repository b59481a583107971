// The bindings and settings every notification job works with, taken from the Worker's env once.
import { enabledChannels, type Channel } from '../channels/registry.ts'
import { createDb, type Db } from '../db/client.ts'
import { settings, type Env, type Settings } from '../env.ts'
import type { QueueProducer } from '../ports/queue.ts'

export interface Notifier {
  env: Env
  db: Db
  d1: D1Database
  queue: QueueProducer
  settings: Settings
  enabled: Record<Channel, boolean>
}

export function notifier(env: Env): Notifier {
  return {
    env,
    db: createDb(env.DB),
    d1: env.DB,
    queue: env.NOTIFICATIONS_QUEUE,
    settings: settings(env),
    enabled: enabledChannels(env),
  }
}
