// contest.results_published: once per contest, when its judge first publishes ratings (rated) or
// final standings (unrated); a re-check or a re-calculation sends nothing more (the id is derived
// from the contest alone, so a repeated emission is a no-op).
import { toApiContest } from '../contests/serialize.ts'
import type { ContestRow } from '../db/schema.ts'
import { emitWebhookEventsSafely, type WebhookBindings } from './emit.ts'
import type { WebhookEvent } from './events.ts'

export interface ResultsPublished {
  contest: ContestRow
  rated: boolean
  /** Participants the judge counted; null when it does not say. */
  participants: number | null
}

export function resultsPublishedEvent(published: ResultsPublished, now: number): WebhookEvent {
  return {
    type: 'contest.results_published',
    subject: published.contest.id,
    data: {
      contest: toApiContest(published.contest, now),
      platform: published.contest.platform,
      participants: published.participants,
      rated: published.rated,
    },
  }
}

/** Never throws: the results are stored by then, and the alerts must not wait on a webhook. */
export async function emitResultsPublished(
  env: WebhookBindings,
  published: ResultsPublished,
  now: number,
): Promise<void> {
  await emitWebhookEventsSafely(env, [resultsPublishedEvent(published, now)], now)
}
