// /app/subscriptions/{contestId}: one contest, the user's choice for it and the buttons that change
// it. The home page's Follow and Mute buttons lead here: that page is public and cached, so it
// carries no token, and the choice is posted from this page, which does.
import type { ContestRow } from '../../db/schema.ts'
import type { SubscriptionMode } from '../../users/contest-subscriptions.ts'
import { contestView } from '../contest-view.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors } from './form-controls.tsx'
import { MODE_EFFECT, MODE_WORDS, startWord } from './subscriptions-page.tsx'
import type { WebSession } from './web-session.ts'

export interface ChoicePageProps {
  session: WebSession
  csrf: string
  contest: ContestRow
  /** The stored choice, if any. */
  current?: SubscriptionMode
  /** The button pressed on the home page: this page then asks to confirm that one. */
  asked?: SubscriptionMode
  now: number
  errors?: string[]
}

const VERB: Record<SubscriptionMode, string> = { follow: 'Follow', mute: 'Mute' }

export function ChoicePage(props: ChoicePageProps) {
  const view = contestView(props.contest)
  const { current, asked } = props
  const title = asked && asked !== current ? `${VERB[asked]} ${view.name}?` : view.name
  const action = `/app/subscriptions/${view.id}`
  // The button asked for first; the choice already stored is not offered again.
  const modes = (['follow', 'mute'] as const)
    .filter((mode) => mode !== current)
    .sort((a, b) => Number(b === asked) - Number(a === asked))
  return (
    <AppFrame title={title} session={props.session} csrf={props.csrf} current="subscriptions">
      <FormErrors errors={props.errors ?? []} />
      <p class="meta">
        <a href={view.url}>{view.name}</a> · {view.platformName} · {view.type} · {view.duration}
      </p>
      <p class="when">
        {startWord(props.contest, props.now)} <time datetime={view.startIso}>{view.startText}</time>
      </p>
      <p id="zone-note" class="note">
        Times are in UTC.
      </p>
      <p id="current-choice" class="callout">
        {current
          ? `${MODE_WORDS[current].state}: ${MODE_EFFECT[current]}`
          : 'No choice yet: your settings decide whether you are reminded of this contest.'}
      </p>
      <ul class="choices-explained">
        {modes.map((mode) => (
          <li>
            <strong>{VERB[mode]}</strong>: {MODE_EFFECT[mode]}
          </li>
        ))}
      </ul>
      <div class="actions item-actions">
        {modes.map((mode, i) => (
          <form method="post" action={action}>
            <CsrfField />
            <input type="hidden" name="mode" value={mode} />
            <button type="submit" class={i === 0 ? undefined : 'button-secondary'}>
              {VERB[mode]} this contest
            </button>
          </form>
        ))}
        {current && (
          <form method="post" action={`${action}/clear`}>
            <CsrfField />
            <button type="submit" class="button-secondary">
              {MODE_WORDS[current].undo}
            </button>
          </form>
        )}
      </div>
      <p>
        <a href="/app/subscriptions">All your followed and muted contests</a>
      </p>
    </AppFrame>
  )
}
