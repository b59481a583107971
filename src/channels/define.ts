// What a delivery channel is. One module per channel (src/channels/<id>/index.ts) declares all the
// rest of the service derives from it: the preferences' switch and request schemas, who can be
// reached in the fan-out's SQL, the provider, how a notification looks there and how it is sent,
// and what a failure means. The registry (registry.ts) lists the modules.
import type { UserRow } from '../db/schema.ts'
import type { Env } from '../env.ts'

/** A failed send: worth a retry, never worth one, or the destination is gone for good. */
export type FailureKind = 'transient' | 'permanent' | 'dead'

export type SendResult = (
  | { ok: true; id?: string }
  | {
      ok: false
      failure: FailureKind
      error: string
      /**
       * What the provider's answer means, in a person's words ('the webhook was deleted'), when
       * its client knows the answer; answer-words.ts says the rest from the failure's kind.
       */
      said?: string
      /** The wait the provider asked for (a 429's retry_after): a retry comes no sooner. */
      retryAfterSeconds?: number
      /** The destination lives at this new address now (a group upgraded to a supergroup). */
      movedTo?: string
    }
) & {
  /** Parts of a destination of many that are gone for good (a browser's push subscription). */
  gone?: string[]
}

/** A notification in the words every channel renders: its kind's headline and summary. */
export interface ChannelText {
  notificationId: string
  /** The notification type (CONTEST_REMINDER...). */
  type: string
  headline: string
  summary: string
  contestId?: string
  /** The contest's page, when the notification is about one contest. */
  url?: string
  /** The contest's start, when the notification is about one contest. */
  startTime?: number
  /** The contest's event as an .ics file on the service, while the contest is in the catalogue. */
  calendarUrl?: string
  /** When the message is worth nothing any more (a reminder, at the contest's start). */
  expiresAt?: number
  /**
   * The message offers a snooze ("Remind me 10 minutes before", a reminder while its contest is
   * further away than that): Telegram's button names the contest, push carries `url`, the
   * recipient's signed link (push and email only, signed at send time).
   */
  snooze?: { label: string; url?: string }
  now: number
  /** The email of the kind, with the recipient's signed links (email only). */
  email?: EmailContent
}

/** An email's content; the address comes from the destination. */
export interface EmailContent {
  subject: string
  html: string
  text?: string
  headers?: Record<string, string>
}

/** The users column that holds a channel's switch (preferences.notificationChannels). */
type SwitchField = {
  [K in keyof UserRow]: K extends `notify${Capitalize<string>}`
    ? UserRow[K] extends boolean
      ? K
      : never
    : never
}[keyof UserRow]

/** A users column that holds a channel's destination as text (a chat id, a webhook URL). */
export type DestinationField = 'telegramChatId' | (`${string}WebhookUrl` & keyof UserRow)

/**
 * Where a channel sends, which says how a user is reachable on it (users/recipients.ts turns each
 * kind into SQL) and what the service clears when the destination is dead:
 * - `email`: the account's address; `phone`: the verified number; `push`: the browsers the user
 *   subscribed (users/push-subscriptions.ts);
 * - `linked`: a column a linking flow fills (Telegram's chat);
 * - `webhook`: a URL the user pastes into the preferences (Discord, Slack), checked by `problem`.
 */
export type Destination =
  | { kind: 'email' }
  | { kind: 'phone' }
  | { kind: 'push' }
  | { kind: 'linked'; field: DestinationField }
  | { kind: 'webhook'; field: DestinationField; webhook: WebhookRules }

export interface WebhookRules {
  /** Longest URL taken. */
  maxLength: number
  /** The form in the API's words: 'https://hooks.slack.com/services/<…>'. */
  form: string
  example: string
  /** Why the Worker may not send to `url`, in the API's wording; undefined when it may. */
  problem(env: Env, url: string): string | undefined
  /** The URL without the secret part, the only form any answer shows. */
  mask(url: string): string
  /** Where a user finds the URL, for the settings page. */
  setupHint: string
}

/** One send: the destination, the rendered message, and the delivery it is for. */
export interface Outgoing<Message, To = string> {
  to: To
  message: Message
  /** The delivery id: a provider's callback reference, an idempotency seed. */
  reference: string
}

export interface ChannelModule<
  Id extends string = string,
  Provider = any,
  Message = any,
  To = any,
  D extends Destination = Destination,
> {
  id: Id
  /** The channel's name in pages and history ('Slack'). */
  label: string
  /**
   * What a send the provider took means, when it is less than delivered: a mail server or push
   * service that accepts a message has not put it in front of anyone yet. Unset: 'delivered'.
   */
  acceptedMeans?: string
  /** On for a new account. */
  defaultOn: boolean
  switchField: SwitchField
  destination: D
  /**
   * The service may turn it off by itself (a bounce, a blocked bot, a dead webhook), recorded in
   * channel_blocks and shown as the profile's channelStatus.
   */
  blockable: boolean
  /** Deliveries a queue message carries (one provider call per delivery, unless `sendBatch`). */
  batchSize: number
  /**
   * The provider this deployment uses, built once per invocation from the settings and handed to
   * every send; undefined when the channel is not available here (no credentials, switched off).
   */
  provider(env: Env): Provider | undefined
  /** Whether its configuration can work (keys well formed); true when not said. */
  configured?(provider: Provider): boolean
  /** The message for one recipient. */
  render(text: ChannelText): Message
  send(provider: Provider, outgoing: Outgoing<Message, To>): Promise<SendResult>
  /** Sends many in one provider call (email), one result per item in order. */
  sendBatch?(provider: Provider, outgoing: readonly Outgoing<Message, To>[]): Promise<SendResult[]>
}

/** Keeps a module's literal id and its provider, message and destination types. */
export const defineChannel = <
  Id extends string,
  Provider,
  Message,
  To = string,
  const D extends Destination = Destination,
>(
  module: ChannelModule<Id, Provider, Message, To, D>,
) => module

/** A send that never reached the provider, with the reason in the error's words. */
export const notSent = (failure: FailureKind, error: string): SendResult => ({
  ok: false,
  failure,
  error,
})

/** The error of a fetch that failed: its kind only, since the message may name a secret URL. */
export const unreachable = (label: string, error: unknown): SendResult =>
  notSent('transient', `${label} unreachable: ${error instanceof Error ? error.name : 'Error'}`)

/** Seconds as providers give them (fractional in bodies, whole in headers), rounded up. */
export function secondsOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.ceil(n) : undefined
}

/** A client's answer in the common words: delivered, worth a retry, gone, or refused for good. */
export function resultOf(answer: {
  ok: boolean
  id?: string
  error?: string
  said?: string
  transient?: boolean
  dead?: boolean
  retryAfterSeconds?: number
  movedTo?: string
}): SendResult {
  if (answer.ok) return { ok: true, ...(answer.id !== undefined && { id: answer.id }) }
  const failure = answer.dead ? 'dead' : answer.transient ? 'transient' : 'permanent'
  return {
    ok: false,
    failure,
    error: answer.error ?? 'Unknown error',
    ...(answer.said !== undefined && { said: answer.said }),
    ...(answer.retryAfterSeconds !== undefined && { retryAfterSeconds: answer.retryAfterSeconds }),
    ...(answer.movedTo !== undefined && { movedTo: answer.movedTo }),
  }
}
