// GET /'s page: the next contest, the folded filters, the feed link, the contests running now and
// coming up, and the long challenges apart.
import { contestView } from './contest-view.ts'
import { ContestItem } from './contest-item.tsx'
import { Document } from './document.tsx'
import { feedLink } from './feed-link.ts'
import { FiltersForm } from './filters-form.tsx'
import { HOME_WINDOW_DAYS, LONG_CHALLENGE_MINUTES, type HomeListing } from './home-listing.ts'
import type { HomeQuery } from './home-query.ts'
import type { PlatformView } from '../contests/schemas.ts'
import { toIso } from '../lib/time.ts'
import { formatUntil } from '../lib/time-words.ts'
import type { Platform } from '../contests/schemas.ts'
import { PLATFORM_MODULES } from '../platforms/registry.ts'

const TITLE = 'Programming contests'

function ContestList({ listing }: { listing: HomeListing }) {
  if (listing.running.length === 0 && listing.upcoming.length === 0 && listing.long.length === 0) {
    return (
      <p id="no-contests">
        No contests match these filters in the next {HOME_WINDOW_DAYS} days.{' '}
        <a href="/">Show all contests</a>
      </p>
    )
  }
  // One list, so every contest is an item of #contests; the group headings are items too.
  return (
    <>
      <ol id="contests">
        {listing.running.length > 0 && (
          <li class="group-heading">
            <h2>Running now</h2>
          </li>
        )}
        {listing.running.map((row) => (
          <ContestItem contest={contestView(row)} running />
        ))}
        {listing.upcoming.length > 0 && (
          <li class="group-heading">
            <h2>Upcoming</h2>
          </li>
        )}
        {listing.upcoming.map((row) => (
          <ContestItem contest={contestView(row)} running={false} />
        ))}
      </ol>
      <LongChallenges listing={listing} />
    </>
  )
}

/** Contests longer than a day, folded: they run for weeks and would bury the rounds. */
function LongChallenges({ listing }: { listing: HomeListing }) {
  if (listing.long.length === 0) return null
  return (
    <details id="long-challenges">
      <summary>
        <h2>Long challenges ({listing.long.length})</h2>
        <span class="note"> longer than {LONG_CHALLENGE_MINUTES / 60} hours</span>
      </summary>
      <ol id="long-contests">
        {listing.long.map((row) => (
          <ContestItem contest={contestView(row)} running={row.startTime <= listing.now} />
        ))}
      </ol>
    </details>
  )
}

/** The next round of the chosen judges, with its countdown (the script keeps it ticking). */
function NextUp({ listing }: { listing: HomeListing }) {
  const next = listing.next
  if (!next) return null
  const contest = contestView(next)
  return (
    <section id="next-up" aria-labelledby="next-up-heading" data-platform={contest.platform}>
      <h2 id="next-up-heading">Next up</h2>
      <p class="next-name">
        <a class="contest-link" href={contest.url}>
          {contest.name}
        </a>
      </p>
      <p class="meta">
        {contest.platformName} · {contest.type} · {contest.duration}
      </p>
      <p class="when">
        Starts{' '}
        <time class="start" datetime={contest.startIso}>
          {contest.startText}
        </time>{' '}
        <span class="countdown" data-start={contest.startIso}>
          {`starts ${formatUntil(next.startTime - listing.now)}`}
        </span>
      </p>
      <a class="add-to-calendar" href={contest.calendarPath}>
        Add to calendar<span class="visually-hidden">: {contest.name}</span>
      </a>
    </section>
  )
}

/**
 * Platforms whose list may be out of date: not synced for 12 hours, or whose source is broken.
 * Their stored contests still show; the reader is told not to trust them blindly.
 */
function StalePlatforms({ platforms }: { platforms: PlatformView[] }) {
  const stale = platforms.filter((p) => p.enabled && (p.stale || p.state !== 'ok'))
  if (stale.length === 0) return null
  return (
    <section id="stale-platforms" class="note" aria-label="Platforms that may be out of date">
      <p>These platforms may be out of date:</p>
      <ul>
        {stale.map((p) => (
          <li data-platform={p.id}>
            {p.name}:{' '}
            {p.lastSuccess
              ? `last updated ${toIso(Date.parse(p.lastSuccess)).slice(0, 16).replace('T', ' ')} UTC`
              : 'not updated yet'}
            {p.state !== 'ok' && ` (its source is ${p.state})`}
          </li>
        ))}
      </ul>
    </section>
  )
}

// The platforms a reader can expect: those with a source of their own.
const FOLLOWED = PLATFORM_MODULES.filter((m) => m.source).length

export function HomePage({
  query,
  listing,
  platforms,
  judges,
}: {
  query: HomeQuery
  listing: HomeListing
  platforms: PlatformView[]
  /** Every platform, most followed first. */
  judges: readonly Platform[]
}) {
  return (
    <Document
      title={TITLE}
      footer={
        <p>
          Also as an API: <a href="/docs">reference</a>.
        </p>
      }
    >
      <header>
        <h1>{TITLE}</h1>
        <p class="lead">
          Running now and starting in the next {HOME_WINDOW_DAYS} days on {FOLLOWED} judges.
        </p>
      </header>
      <main id="main" tabindex={-1}>
        <NextUp listing={listing} />
        <FiltersForm query={query} judges={judges} />
        <p class="subscribe">
          <a id="subscribe" href={feedLink(query)}>
            Subscribe in your calendar
          </a>{' '}
          <span class="note">(an iCalendar feed with the filters chosen above)</span>
        </p>
        <p id="zone-note" class="note">
          Times are in UTC.
        </p>
        <StalePlatforms platforms={platforms} />
        <ContestList listing={listing} />
      </main>
    </Document>
  )
}
