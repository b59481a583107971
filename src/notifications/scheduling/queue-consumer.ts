// The notifications queue carries two kinds of message: fan-out pages (a contest's followers to
// remind, fan-out-pages.ts), made here, and deliveries to send, handed to the delivery consumer.
import { unmarkContestNotified } from '../../contests/notified.ts'
import type { Env } from '../../env.ts'
import { log } from '../../lib/log.ts'
import type { QueueBatch, QueueMessage } from '../../ports/queue.ts'
import { notifier, type Notifier } from '../context.ts'
import { consumeDeadLetters, consumeNotifications } from '../delivery/consumer.ts'
import {
  failNotificationEdits,
  isNotificationEditMessage,
  sendNotificationEdit,
  type NotificationEditMessage,
} from '../delivery/edits.ts'
import { NOTIFICATION_RETRY_DELAYS_SECONDS } from '../delivery/status.ts'
import { fanOutOf, type FanOutPage } from './fan-out-pages.ts'
import { resumeFanOutPage } from './page-resume.ts'
import { remindFanOutPages } from './reminders.ts'

type PageMessage = { message: QueueMessage; page: FanOutPage }

/** Splits the batch into fan-out pages and the rest (deliveries, or nothing usable). */
function split(batch: QueueBatch) {
  const pages: PageMessage[] = []
  const rest: QueueMessage[] = []
  for (const message of batch.messages) {
    const page = fanOutOf(message.body)
    if (page) pages.push({ message, page })
    else rest.push(message)
  }
  return { pages, rest }
}

// Pages walked together at most: a step writes up to this many pages' reminders (FAN_OUT_PAGE
// followers each) in one D1 batch, whatever batch size a runtime's queue hands over.
const PAGES_PER_WALK = 10

/** The pages by their range of followers: the pages of one range are walked together. */
export function byRange(pages: readonly PageMessage[]) {
  const ranges = new Map<string, PageMessage[][]>()
  for (const item of pages) {
    const key = JSON.stringify([item.page.after, item.page.through])
    const walks = ranges.get(key) ?? [[]]
    if (walks[walks.length - 1].length === PAGES_PER_WALK) walks.push([])
    walks[walks.length - 1].push(item)
    ranges.set(key, walks)
  }
  return [...ranges.values()].flat()
}

/**
 * Makes the reminders of pages of one range and acks them. When they fail together, each is run
 * again on its own, so one page's failure is not its neighbours'; those runs first enqueue what
 * the failed walk made, as a retry does.
 */
async function remindPages(n: Notifier, pages: readonly PageMessage[], afterFailure = false) {
  try {
    await remindFanOutPages(
      n,
      pages.map(({ message, page }) => ({ page, resume: afterFailure || message.attempts > 1 })),
      Date.now(),
    )
    for (const { message } of pages) message.ack()
  } catch (error) {
    if (pages.length > 1) {
      for (const item of pages) await remindPages(n, [item], true)
      return
    }
    // Made reminders stay made (their unique keys): the retry hands them over, then finishes
    // the page.
    const [{ message, page }] = pages
    log.error('notification-fan-out-failed', { ...page, attempt: message.attempts, error })
    message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0] })
  }
}

/** Each reminder's edit sent once, acked, retried or put back to wait (delivery/edits.ts). */
async function editReminders(n: Notifier, messages: readonly QueueMessage[]) {
  for (const message of messages) {
    const { notificationEditId } = message.body as NotificationEditMessage
    try {
      const outcome = await sendNotificationEdit(n, notificationEditId, Date.now())
      if (outcome.done) message.ack()
      else if ('waiting' in outcome) {
        await n.queue.send(message.body, { delaySeconds: outcome.delaySeconds })
        message.ack()
      } else message.retry({ delaySeconds: outcome.delaySeconds })
    } catch (error) {
      log.error('notification-edit-failed', { notificationEditId, error })
      message.retry({ delaySeconds: NOTIFICATION_RETRY_DELAYS_SECONDS[0] })
    }
  }
}

export async function consumeNotificationQueue(whole: QueueBatch, env: Env) {
  const n = notifier(env)
  const edits = whole.messages.filter((m) => isNotificationEditMessage(m.body))
  if (edits.length > 0) await editReminders(n, edits)
  const batch = { ...whole, messages: whole.messages.filter((m) => !edits.includes(m)) }
  const { pages, rest } = split(batch)
  // One range after another: each is one writer's work, and D1 has one writer.
  for (const range of byRange(pages)) await remindPages(n, range)
  if (rest.length > 0) await consumeNotifications({ queue: batch.queue, messages: rest }, env)
}

/**
 * A fan-out page the queue gave up on hands over the reminders it made and takes its contest's
 * notified mark back, so the next run makes the rest; dead deliveries are recorded FAILED by the
 * delivery consumer.
 */
export async function consumeNotificationDeadLetters(whole: QueueBatch, env: Env) {
  const n = notifier(env)
  const edits = whole.messages.filter((m) => isNotificationEditMessage(m.body))
  if (edits.length > 0) {
    const ids = edits.map((m) => (m.body as NotificationEditMessage).notificationEditId)
    await failNotificationEdits(n.d1, ids, Date.now())
    for (const message of edits) message.ack()
  }
  const batch = { ...whole, messages: whole.messages.filter((m) => !edits.includes(m)) }
  const { pages, rest } = split(batch)
  for (const { message, page } of pages) {
    await resumeFanOutPage(n, page, Date.now())
    await unmarkContestNotified(n.db, { id: page.contestId, startTime: page.startTime }, Date.now())
    log.error('notification-fan-out-dead-letter', { queue: batch.queue, ...page })
    message.ack()
  }
  if (rest.length > 0) await consumeDeadLetters({ queue: batch.queue, messages: rest }, env)
}
