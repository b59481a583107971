// The notifications queue carries two kinds of message: fan-out pages (a contest's followers to
// remind, fan-out-pages.ts), made here, and deliveries to send, handed to the delivery consumer.
import { unmarkContestNotified } from '../../contests/notified.ts'
import type { Env } from '../../env.ts'
import { log } from '../../lib/log.ts'
import type { QueueBatch, QueueMessage } from '../../ports/queue.ts'
import { notifier } from '../context.ts'
import { consumeDeadLetters, consumeNotifications } from '../delivery/consumer.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from '../delivery/status.ts'
import { fanOutOf, type FanOutPage } from './fan-out-pages.ts'
import { resumeFanOutPage } from './page-resume.ts'
import { remindFanOutPage } from './reminders.ts'

/** Splits the batch into fan-out pages and the rest (deliveries, or nothing usable). */
function split(batch: QueueBatch) {
  const pages: { message: QueueMessage; page: FanOutPage }[] = []
  const rest: QueueMessage[] = []
  for (const message of batch.messages) {
    const page = fanOutOf(message.body)
    if (page) pages.push({ message, page })
    else rest.push(message)
  }
  return { pages, rest }
}

export async function consumeNotificationQueue(batch: QueueBatch, env: Env) {
  const { pages, rest } = split(batch)
  const n = notifier(env)
  // One page after another: each is one writer's work, and D1 has one writer.
  for (const { message, page } of pages) {
    try {
      await remindFanOutPage(n, page, Date.now(), { attempt: message.attempts })
      message.ack()
    } catch (error) {
      // Made reminders stay made (their unique keys): the retry hands them over, then finishes
      // the page.
      log.error('notification-fan-out-failed', { ...page, attempt: message.attempts, error })
      message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0] })
    }
  }
  if (rest.length > 0) await consumeNotifications({ queue: batch.queue, messages: rest }, env)
}

/**
 * A fan-out page the queue gave up on hands over the reminders it made and takes its contest's
 * notified mark back, so the next run makes the rest; dead deliveries are recorded FAILED by the
 * delivery consumer.
 */
export async function consumeNotificationDeadLetters(batch: QueueBatch, env: Env) {
  const { pages, rest } = split(batch)
  const n = notifier(env)
  for (const { message, page } of pages) {
    await resumeFanOutPage(n, page, Date.now())
    await unmarkContestNotified(n.db, { id: page.contestId, startTime: page.startTime }, Date.now())
    log.error('notification-fan-out-dead-letter', { queue: batch.queue, ...page })
    message.ack()
  }
  if (rest.length > 0) await consumeDeadLetters({ queue: batch.queue, messages: rest }, env)
}
