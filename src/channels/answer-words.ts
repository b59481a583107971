// A send's answer as a person reads it: an outcome and one sentence naming the channel ("Discord:
// the webhook was deleted"). The words are the provider client's (SendResult.said) when it knew
// the answer, else the failure's kind with the answer as it came; bounded, with URLs' secrets
// and phone numbers taken out, so the delivery log and the test send can show them as they are.
import { redactSecrets } from '../lib/log-redaction.ts'
import type { FailureKind, SendResult } from './define.ts'

export const SEND_OUTCOMES = [
  'delivered',
  'temporary_failure',
  'refused',
  'destination_gone',
  // Not a provider's answer: the queue stopped retrying (the dead-letter queue's line in the log).
  'given_up',
] as const
export type SendOutcome = (typeof SEND_OUTCOMES)[number]

/** The longest sentence kept: enough for a provider's reason, not for a page it answered with. */
export const MAX_ANSWER_LENGTH = 240

const OUTCOME_OF: Record<FailureKind, SendOutcome> = {
  transient: 'temporary_failure',
  permanent: 'refused',
  dead: 'destination_gone',
}

const FALLBACK: Record<FailureKind, string> = {
  transient: 'not reached this time',
  permanent: 'not sent',
  dead: 'the destination is gone',
}

// A run of 7 or more digits (spaces, dots and dashes between) is a phone number, a chat id or an
// account id, not a provider's error code (WhatsApp's have 6): the log keeps its last two digits.
const NUMBER_RUN = /\+?\d(?:[\s.-]?\d){6,}/g

/** `text` with no secret of a URL and no full number, cut to `max` characters. */
export function safeWords(text: string, max = MAX_ANSWER_LENGTH): string {
  const cleaned = redactSecrets(text)
    .replace(/https?:\/\/[^\s)]+/g, (url) => {
      try {
        return `${new URL(url).host}/…`
      } catch {
        return '[link]'
      }
    })
    .replace(NUMBER_RUN, (run) => `…${run.replace(/\D/g, '').slice(-2)}`)
    .replace(/\s+/g, ' ')
    .trim()
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned
}

export interface AnswerWords {
  outcome: SendOutcome
  message: string
}

/**
 * The answer of one send over the channel `label` names ('Telegram'). `acceptedMeans` words a
 * send the provider took but cannot yet have put in front of anyone (an email Resend accepted).
 */
export function answerInWords(
  label: string,
  result: SendResult,
  acceptedMeans = 'delivered',
): AnswerWords {
  if (result.ok) return { outcome: 'delivered', message: `${label}: ${acceptedMeans}` }
  const outcome = OUTCOME_OF[result.failure]
  const words = result.said ?? `${FALLBACK[result.failure]} (${result.error})`
  return { outcome, message: safeWords(`${label}: ${words}`) }
}
