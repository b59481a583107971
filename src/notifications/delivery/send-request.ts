// What a send over one channel is given, the same for every channel.
import type { Channel, Providers } from '../../channels/registry.ts'
import type { Db } from '../../db/client.ts'
import type { PushSubscriptionRow } from '../../db/schema.ts'
import type { Env } from '../../env.ts'
import type { ContentContext, Recipient, StoredNotification } from '../kinds/rendering.ts'

export interface SendRequest {
  env: Env
  db: Db
  /** Built once per invocation (channels/registry.ts channelProviders). */
  providers: Providers
  channel: Channel
  notification: StoredNotification
  userId: string
  recipient: Recipient
  content: ContentContext
  /** The delivery id: a provider's callback reference, the email batch's idempotency seed. */
  deliveryId: string
  /** The recipient's push subscriptions, read for the whole batch at once (push only). */
  pushSubscriptions?: PushSubscriptionRow[]
}
