// Queues as the core uses them: a producer that sends (optionally delayed) messages, and the batch
// a consumer receives, whose messages are each acknowledged or retried. Workers Queues fit as they
// are; another runtime supplies its own.

export interface QueueProducer<Body = unknown> {
  send(body: Body, options?: { delaySeconds?: number }): Promise<unknown>
  sendBatch(messages: Iterable<{ body: Body; delaySeconds?: number }>): Promise<unknown>
}

export interface QueueMessage<Body = unknown> {
  readonly id: string
  readonly body: Body
  /** 1 on the first delivery, counting up with each retry. */
  readonly attempts: number
  ack(): void
  retry(options?: { delaySeconds?: number }): void
}

export interface QueueBatch<Body = unknown> {
  /** The name of the queue the batch came from. */
  readonly queue: string
  readonly messages: readonly QueueMessage<Body>[]
}
