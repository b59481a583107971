// One contest of the list, in the markup the browser tests and the page's script rely on.
import type { ContestView } from './contest-view.ts'

export function ContestItem({ contest, running }: { contest: ContestView; running: boolean }) {
  return (
    <li
      class="contest"
      data-platform={contest.platform}
      data-start={contest.startIso}
      data-duration={String(contest.durationMinutes)}
      data-status={running ? 'running' : 'upcoming'}
    >
      <h3>
        <a class="contest-link" href={contest.url}>
          {contest.name}
        </a>
      </h3>
      <p class="meta">
        {contest.platformName} · {contest.type} · {contest.duration}
      </p>
      <p class="when">
        {running ? 'Started ' : 'Starts '}
        <time class="start" datetime={contest.startIso}>
          {contest.startText}
        </time>
        {/* Filled and shown by the script; without it the start time says enough. */}
        {!running && <span class="countdown" data-start={contest.startIso} hidden></span>}
      </p>
      <a class="add-to-calendar" href={contest.calendarPath}>
        Add to calendar<span class="visually-hidden">: {contest.name}</span>
      </a>
      {/* A GET form, so the cached page is the same for everyone and carries no token: it leads to
          the signed-in page of this contest (sign-in first), which posts the choice. */}
      <form class="contest-choice" method="get" action={`/app/subscriptions/${contest.id}`}>
        <button type="submit" class="button-secondary" name="mode" value="follow">
          Follow<span class="visually-hidden"> {contest.name}</span>
        </button>
        <button type="submit" class="button-secondary" name="mode" value="mute">
          Mute<span class="visually-hidden"> {contest.name}</span>
        </button>
      </form>
    </li>
  )
}
