// What a provider reported about an email after accepting it: recorded on its delivery, and a
// hard bounce or a complaint stops optional email to the address (users' channel block).
import { and, eq } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { EmailEvent } from '../../channels/email/resend-events.ts'
import type { Db } from '../../db/client.ts'
import { notificationDeliveries, notifications } from '../../db/schema.ts'
import { blockChannelStatements } from '../../users/channel-blocks.ts'
import { logEventStatement } from '../attempt-log.ts'
import type { SendOutcome } from '../../channels/answer-words.ts'

type Statement = BatchItem<'sqlite'>

export type EventResult = 'recorded' | 'unchanged' | 'unknown-email'

/** What each event says in the delivery log. */
const EVENT_WORDS: Record<EmailEvent['outcome'], { outcome: SendOutcome; message: string }> = {
  delivered: { outcome: 'delivered', message: 'Email: delivered to the mailbox' },
  bounced: { outcome: 'destination_gone', message: 'Email: the address bounced' },
  complained: { outcome: 'refused', message: 'Email: the recipient marked it as spam' },
}

/**
 * Records the event on the email delivery the provider's id names. An event that would not change
 * the recorded outcome does nothing, so a redelivered event (Svix retries until acknowledged)
 * never suppresses an address again after the user turned email back on; 'delivered' never
 * replaces a bounce or complaint that arrived first.
 */
export async function recordEmailEvent(
  db: Db,
  event: EmailEvent,
  now: number,
): Promise<EventResult> {
  const d = notificationDeliveries
  const delivery = await db
    .select({
      id: d.id,
      notificationId: d.notificationId,
      outcome: d.providerOutcome,
      userId: notifications.userId,
    })
    .from(d)
    .innerJoin(notifications, eq(notifications.id, d.notificationId))
    .where(and(eq(d.providerMessageId, event.emailId), eq(d.channel, 'email')))
    .get()
  if (!delivery) return 'unknown-email'
  const settled = delivery.outcome !== null && event.outcome === 'delivered'
  if (delivery.outcome === event.outcome || settled) return 'unchanged'
  const statements: Statement[] = [
    db
      .update(d)
      .set({ providerOutcome: event.outcome, updatedAt: now })
      .where(eq(d.id, delivery.id)),
    logEventStatement(
      db,
      {
        deliveryId: delivery.id,
        notificationId: delivery.notificationId,
        channel: 'email',
        ...EVENT_WORDS[event.outcome],
      },
      now,
    ),
  ]
  if (event.suppress && event.outcome !== 'delivered') {
    const block = { userId: delivery.userId, channel: 'email' as const, reason: event.outcome }
    statements.push(...blockChannelStatements(db, block, now))
  }
  await db.batch(statements as [Statement, ...Statement[]])
  return 'recorded'
}
