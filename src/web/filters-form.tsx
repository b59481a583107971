// The filters: a plain GET form back to the page, so filtering works without JavaScript, folded
// into one line that says what is chosen, so that on a phone the list comes first.
import { formatDuration, platformName } from '../contests/describe.ts'
import { TYPES_BY_PLATFORM, type Platform } from '../contests/schemas.ts'
import { contestTypeName } from './contest-type-names.ts'
import { MAX_SEARCH_LENGTH, type HomeQuery } from './home-query.ts'

/** The judges shown before "More judges": the most followed ones. */
export const FIRST_JUDGES = 6

// The lengths offered; a value of the URL that is not one of them is offered too.
const MIN_DURATIONS = [60, 120, 180, 24 * 60]
const MAX_DURATIONS = [120, 180, 300, 24 * 60]

/** Minutes in words: "3 h", "1 day", "90 min". */
function lengthWords(minutes: number): string {
  const days = minutes / (24 * 60)
  if (Number.isInteger(days)) return days === 1 ? '1 day' : `${days} days`
  return formatDuration(minutes)
}

/** What the folded filters say: "Codeforces, AtCoder · Div. 2 · 'educational' · up to 3 h". */
export function filtersSummary(query: HomeQuery): string {
  const names = query.platforms.map(platformName)
  const judges =
    names.length === 0
      ? 'All judges'
      : names.length <= 3
        ? names.join(', ')
        : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`
  const parts = [judges, query.type ? contestTypeName(query.type) : 'any type']
  if (query.q) parts.push(`‘${query.q}’`)
  const { minDuration: min, maxDuration: max } = query
  if (min && max) parts.push(`${lengthWords(min)} to ${lengthWords(max)}`)
  else if (min) parts.push(`at least ${lengthWords(min)}`)
  else if (max) parts.push(`up to ${lengthWords(max)}`)
  return parts.join(' · ')
}

function PlatformChoice({ platform, query }: { platform: Platform; query: HomeQuery }) {
  return (
    <span>
      <input
        type="checkbox"
        id={`platform-${platform}`}
        name="platform"
        value={platform}
        checked={query.platforms.includes(platform)}
      />{' '}
      <label for={`platform-${platform}`}>{platformName(platform)}</label>
    </span>
  )
}

function LengthSelect(props: {
  name: 'minDuration' | 'maxDuration'
  label: string
  any: string
  presets: number[]
  value?: number
  words: (minutes: number) => string
}) {
  const values = [...new Set([...props.presets, ...(props.value ? [props.value] : [])])].sort(
    (a, b) => a - b,
  )
  return (
    <div class="field">
      <label for={props.name}>{props.label}</label>
      <select id={props.name} name={props.name}>
        <option value="" selected={!props.value}>
          {props.any}
        </option>
        {values.map((minutes) => (
          <option value={String(minutes)} selected={props.value === minutes}>
            {props.words(minutes)}
          </option>
        ))}
      </select>
    </div>
  )
}

/**
 * `judges`: every platform, most followed first. The first FIRST_JUDGES are shown, the rest fold
 * under "More judges", opened when one of them is chosen.
 */
export function FiltersForm({ query, judges }: { query: HomeQuery; judges: readonly Platform[] }) {
  const first = judges.slice(0, FIRST_JUDGES)
  const more = judges.slice(FIRST_JUDGES)
  return (
    <details id="filters-panel">
      <summary>
        <span class="filters-label">Filters:</span>{' '}
        <span id="filters-summary">{filtersSummary(query)}</span>
      </summary>
      <form id="filters" method="get" action="/" role="search" aria-label="Filter contests">
        <fieldset>
          <legend>Judge</legend>
          <div class="choices">
            {first.map((platform) => (
              <PlatformChoice platform={platform} query={query} />
            ))}
          </div>
          {more.length > 0 && (
            <details class="more-judges" open={more.some((p) => query.platforms.includes(p))}>
              <summary>More judges ({more.length})</summary>
              <div class="choices">
                {more.map((platform) => (
                  <PlatformChoice platform={platform} query={query} />
                ))}
              </div>
            </details>
          )}
        </fieldset>
        <div class="field">
          <label for="type">Contest type</label>
          <select id="type" name="type">
            <option value="" selected={!query.type}>
              Any type
            </option>
            {judges.map((platform) => (
              <optgroup label={platformName(platform)}>
                {TYPES_BY_PLATFORM[platform].map((type) => (
                  <option value={type} selected={query.type === type}>
                    {contestTypeName(type)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div class="field-row">
          <LengthSelect
            name="minDuration"
            label="Shortest"
            any="Any length"
            presets={MIN_DURATIONS}
            value={query.minDuration}
            words={(m) => `at least ${lengthWords(m)}`}
          />
          <LengthSelect
            name="maxDuration"
            label="Longest"
            any="Any length"
            presets={MAX_DURATIONS}
            value={query.maxDuration}
            words={(m) => `up to ${lengthWords(m)}`}
          />
        </div>
        <div class="field">
          <label for="q">Search</label>
          <input
            type="search"
            id="q"
            name="q"
            value={query.q ?? ''}
            maxlength={MAX_SEARCH_LENGTH}
            placeholder="e.g. educational round"
          />
        </div>
        <div class="actions">
          <button type="submit">Show contests</button>
          <a href="/">Clear filters</a>
        </div>
      </form>
    </details>
  )
}
