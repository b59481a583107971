// One contest of the list, in the markup the browser tests and the page's script rely on.
import type { ContestView } from './contest-view.ts'

export function ContestItem({ contest, running }: { contest: ContestView; running: boolean }) {
  return (
    <li
      class="contest"
      data-platform={contest.platform}
      data-start={contest.startIso}
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
    </li>
  )
}
