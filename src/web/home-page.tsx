// GET /'s page: the filters, the feed link and the contests running now and coming up.
import { contestView } from './contest-view.ts'
import { ContestItem } from './contest-item.tsx'
import { Document } from './document.tsx'
import { feedLink } from './feed-link.ts'
import { FiltersForm } from './filters-form.tsx'
import { HOME_WINDOW_DAYS, type HomeListing } from './home-listing.ts'
import type { HomeQuery } from './home-query.ts'
import type { PlatformView } from '../contests/schemas.ts'
import { toIso } from '../lib/time.ts'
import { PLATFORM_MODULES } from '../platforms/registry.ts'

const TITLE = 'Programming contests'

function ContestList({ listing }: { listing: HomeListing }) {
  if (listing.running.length === 0 && listing.upcoming.length === 0) {
    return (
      <p id="no-contests">
        No contests match these filters in the next {HOME_WINDOW_DAYS} days.{' '}
        <a href="/">Show all contests</a>
      </p>
    )
  }
  // One list, so every contest is an item of #contests; the group headings are items too.
  return (
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
}: {
  query: HomeQuery
  listing: HomeListing
  platforms: PlatformView[]
}) {
  return (
    <Document title={TITLE}>
      <header>
        <h1>{TITLE}</h1>
        <p class="lead">
          Running now and starting in the next {HOME_WINDOW_DAYS} days on {FOLLOWED} judges.
        </p>
      </header>
      <main id="main" tabindex={-1}>
        <FiltersForm query={query} />
        <p class="subscribe">
          <a id="subscribe" href={feedLink(query)}>
            Subscribe in your calendar
          </a>{' '}
          <span class="note">(an iCalendar feed with the platform and type chosen above)</span>
        </p>
        <p id="zone-note" class="note">
          Times are in UTC.
        </p>
        <StalePlatforms platforms={platforms} />
        <ContestList listing={listing} />
      </main>
      <footer>
        <p>
          Also as an API: <a href="/docs">reference</a>.
        </p>
      </footer>
    </Document>
  )
}
