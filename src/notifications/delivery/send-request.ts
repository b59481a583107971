// What a send over one channel is given and what it answers, the same for every channel.
import type { Channel } from '../../channels/registry.ts'
import type { Db } from '../../db/client.ts'
import type { PushSubscriptionRow } from '../../db/schema.ts'
import type { Env } from '../../env.ts'
import type { ContentContext, Recipient, StoredNotification } from '../kinds/rendering.ts'

export interface ChannelResult {
  ok: boolean
  providerMessageId?: string
  error?: string
  transient?: boolean
  /** The wait the provider asked for (Telegram's retry_after): a retry comes no sooner. */
  retryAfterSeconds?: number
}

export interface SendRequest {
  env: Env
  db: Db
  channel: Channel
  notification: StoredNotification
  userId: string
  recipient: Recipient
  content: ContentContext
  /** The delivery id: WhatsApp's callback reference. */
  deliveryId: string
  /** The recipient's push subscriptions, read for the whole batch at once (push only). */
  pushSubscriptions?: PushSubscriptionRow[]
}
