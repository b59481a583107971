// The filters: a plain GET form back to the page, so filtering works without JavaScript.
import { platformName } from '../contests/describe.ts'
import { PLATFORMS, TYPES_BY_PLATFORM } from '../contests/schemas.ts'
import { contestTypeName } from './contest-type-names.ts'
import { MAX_SEARCH_LENGTH, type HomeQuery } from './home-query.ts'

export function FiltersForm({ query }: { query: HomeQuery }) {
  return (
    <form id="filters" method="get" action="/" role="search" aria-label="Filter contests">
      <fieldset>
        <legend>Platform</legend>
        <div class="choices">
          {PLATFORMS.map((platform) => (
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
          ))}
        </div>
      </fieldset>
      <div class="field">
        <label for="type">Contest type</label>
        <select id="type" name="type">
          <option value="" selected={!query.type}>
            Any type
          </option>
          {PLATFORMS.map((platform) => (
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
  )
}
