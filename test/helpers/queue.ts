// Hands messages to the Worker's own queue() entry as one batch of a named queue, as Queues would,
// and answers the acks and retries (with the delay each retry asked for).
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test'
import type { Env } from '../../src/env.ts'
import worker from '../../src/index.ts'

let messageSeq = 0

/**
 * Hands `bodies` to the Worker's queue() as one batch from `queue`; answers the acks and retries,
 * with the delay each retry asked for (the pool's own result leaves delays out).
 */
export async function runQueue<Body>(
  bodies: Body[],
  bindings: Partial<Env>,
  { queue = 'webhooks', attempts = 1 } = {},
) {
  const batch = createMessageBatch<Body>(
    queue,
    bodies.map((body) => ({ id: `msg-${++messageSeq}`, timestamp: new Date(), attempts, body })),
  )
  const delays: Record<string, number | undefined> = {}
  for (const message of batch.messages) {
    const retry = message.retry.bind(message)
    Object.defineProperty(message, 'retry', {
      value: (options?: QueueRetryOptions) => {
        delays[message.id] = options?.delaySeconds
        retry(options)
      },
    })
  }
  const ctx = createExecutionContext()
  const queueHandler = worker.queue as ExportedHandlerQueueHandler<Env>
  await queueHandler(batch, { ...env, ...bindings }, ctx)
  const result = await getQueueResult(batch, ctx)
  const retries = result.retryMessages.map(({ msgId }: { msgId: string }) => ({
    msgId,
    delaySeconds: delays[msgId],
  }))
  return { batch, result: { ...result, retryMessages: retries } }
}
