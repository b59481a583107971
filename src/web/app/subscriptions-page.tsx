// /app/subscriptions: the contests the user follows or muted, the latest choice first, each with
// its platform and start, and buttons to go back to the default or switch to the other choice.
import type { ContestRow } from '../../db/schema.ts'
import type { ChoiceEntry } from '../../users/contest-choices.ts'
import type { SubscriptionMode } from '../../users/contest-subscriptions.ts'
import { contestView } from '../contest-view.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { SUBSCRIPTIONS_PAGE_SIZE, subscriptionsQueryString } from './subscriptions-forms.ts'
import type { WebSession } from './web-session.ts'

export const MODE_WORDS: Record<SubscriptionMode, { state: string; undo: string; other: string }> =
  {
    follow: { state: 'Following', undo: 'Unfollow', other: 'Mute instead' },
    mute: { state: 'Muted', undo: 'Unmute', other: 'Follow instead' },
  }

/** What each choice does, in the words of docs/decisions.md's D87 (follow and mute). */
export const MODE_EFFECT: Record<SubscriptionMode, string> = {
  follow:
    'You are reminded of it even where your platforms, types, filters or digest setting would leave it out.',
  mute: 'You get no reminder of it, no digest line and no calendar event.',
}

export interface SubscriptionsPageProps {
  session: WebSession
  csrf: string
  entries: ChoiceEntry[]
  total: number
  offset: number
  now: number
  notice?: string
  errors?: string[]
}

/** "Starts", "Started" or "Ended", by the clock, as the API's phase. */
export function startWord(contest: ContestRow, now: number): string {
  if (contest.startTime > now) return 'Starts'
  return contest.endTime > now ? 'Started' : 'Ended'
}

function Item({ entry, query, now }: { entry: ChoiceEntry; query: string; now: number }) {
  const view = contestView(entry.contest)
  const words = MODE_WORDS[entry.mode]
  const other: SubscriptionMode = entry.mode === 'follow' ? 'mute' : 'follow'
  const titleId = `choice-${view.id}-title`
  const action = `/app/subscriptions/${view.id}`
  return (
    <li
      class="card subscription"
      data-contest-id={view.id}
      data-mode={entry.mode}
      aria-labelledby={titleId}
    >
      <h3 id={titleId}>
        <a href={view.url}>{view.name}</a>
      </h3>
      <p class="meta">
        {view.platformName} · {view.type} · {view.duration}
      </p>
      <p class="when">
        {startWord(entry.contest, now)} <time datetime={view.startIso}>{view.startText}</time>
      </p>
      <p class="status">
        <strong>{words.state}</strong>: {MODE_EFFECT[entry.mode]}
      </p>
      <div class="actions item-actions">
        <form method="post" action={`${action}/clear${query}`}>
          <CsrfField />
          <button type="submit" aria-describedby={titleId}>
            {words.undo}
          </button>
        </form>
        <form method="post" action={`${action}${query}`}>
          <CsrfField />
          <input type="hidden" name="mode" value={other} />
          <button type="submit" class="button-secondary" aria-describedby={titleId}>
            {words.other}
          </button>
        </form>
      </div>
    </li>
  )
}

function Pages({ offset, total }: { offset: number; total: number }) {
  if (offset === 0 && total <= SUBSCRIPTIONS_PAGE_SIZE) return null
  const link = (at: number) => `/app/subscriptions${subscriptionsQueryString(at)}`
  const last = Math.min(total, offset + SUBSCRIPTIONS_PAGE_SIZE)
  return (
    <nav class="pager" aria-label="Pages of followed and muted contests">
      {offset > 0 && (
        <a rel="prev" href={link(Math.max(0, offset - SUBSCRIPTIONS_PAGE_SIZE))}>
          Later choices
        </a>
      )}
      <span>
        {offset < total ? `${offset + 1} to ${last} of ${total}` : `none of ${total} here`}
      </span>
      {offset + SUBSCRIPTIONS_PAGE_SIZE < total && (
        <a rel="next" href={link(offset + SUBSCRIPTIONS_PAGE_SIZE)}>
          Earlier choices
        </a>
      )}
    </nav>
  )
}

export function SubscriptionsPage(props: SubscriptionsPageProps) {
  const { entries, total, offset, now } = props
  const query = subscriptionsQueryString(offset)
  return (
    <AppFrame
      title="Followed and muted contests"
      session={props.session}
      csrf={props.csrf}
      current="subscriptions"
    >
      <Notice>{props.notice}</Notice>
      <FormErrors errors={props.errors ?? []} />
      <p class="lead">
        Your settings choose which contests you are reminded of. Follow a contest to be reminded of
        it anyway, or mute one you do not want to hear about. Use the Follow and Mute buttons of the{' '}
        <a href="/">contest list</a>.
      </p>
      <p id="zone-note" class="note">
        Times are in UTC.
      </p>
      {entries.length === 0 ? (
        <p id="no-subscriptions">
          {total === 0
            ? 'You have not followed or muted any contest.'
            : 'No followed or muted contests on this page.'}
        </p>
      ) : (
        <ol id="subscriptions" class="cards">
          {entries.map((entry) => (
            <Item entry={entry} query={query} now={now} />
          ))}
        </ol>
      )}
      <Pages offset={offset} total={total} />
    </AppFrame>
  )
}
