// /app/history: the signed-in user's notifications, newest first, a page at a time, with filters,
// each one's overall and per-channel status with the delivery log (each attempt and what the
// provider answered, how long from due to sent), and its buttons (mark read, retry a failed one).
import { CHANNELS, perChannel } from '../../channels/registry.ts'
import { MAX_RETRIES, NOTIFICATION_STATUSES } from '../../notifications/delivery/status.ts'
import type { ApiNotification } from '../../notifications/serialize.ts'
import { NOTIFICATION_TYPES } from '../../notifications/spec.ts'
import { formatTime } from '../../lib/time-words.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { HISTORY_PAGE_SIZE, historyQueryString, type HistoryFilters } from './history-query.ts'
import type { WebSession } from './web-session.ts'

export const STATUS_WORDS: Record<string, string> = {
  PENDING: 'Waiting to be sent',
  SENT: 'Sent',
  FAILED: 'Failed',
  RETRYING: 'Retrying',
}

export const TYPE_WORDS: Record<string, string> = {
  CONTEST_REMINDER: 'Contest reminder',
  CONTEST_STARTING: 'Contest starting',
  CONTEST_ENDING: 'Contest ending',
  SYSTEM_ALERT: 'System alert',
  CONTEST_RESULT: 'Contest result',
}

const CHANNEL_WORDS: Record<string, string> = perChannel((m) => m.label)

export interface HistoryPageProps {
  session: WebSession
  csrf: string
  filters: HistoryFilters
  notifications: ApiNotification[]
  total: number
  notice?: string
  /** What went wrong: a filter that is not valid, or a retry's refusal in the API's words. */
  errors?: string[]
}

/** Whether the API would retry it now: failed channels with retries left (status.ts's rule). */
function retryable(n: ApiNotification): boolean {
  if (n.status === 'SENT' || n.status === 'PENDING') return false
  return n.deliveryStatus.some(
    (d) => (d.status === 'FAILED' || d.status === 'RETRYING') && d.retryCount < MAX_RETRIES,
  )
}

function UtcTime({ iso }: { iso: string }) {
  // UTC until the page's script names the viewer's own zone.
  return <time datetime={iso}>{formatTime(Date.parse(iso), 'UTC')}</time>
}

function Filters({ filters }: { filters: HistoryFilters }) {
  return (
    <form
      id="history-filters"
      class="page-filters"
      method="get"
      action="/app/history"
      aria-label="Filter notifications"
    >
      <div class="field">
        <label for="status">Status</label>
        <select id="status" name="status">
          <option value="" selected={!filters.status}>
            Any status
          </option>
          {NOTIFICATION_STATUSES.map((status) => (
            <option value={status} selected={filters.status === status}>
              {STATUS_WORDS[status]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="channel">Channel</label>
        <select id="channel" name="channel" aria-describedby="channel-hint">
          <option value="" selected={!filters.channel}>
            Any channel
          </option>
          {CHANNELS.map((channel) => (
            <option value={channel} selected={filters.channel === channel}>
              {CHANNEL_WORDS[channel]}
            </option>
          ))}
        </select>
        <p id="channel-hint" class="hint">
          With a channel, the status is that channel’s.
        </p>
      </div>
      <div class="field">
        <label for="type">Type</label>
        <select id="type" name="type">
          <option value="" selected={!filters.type}>
            Any type
          </option>
          {NOTIFICATION_TYPES.map((type) => (
            <option value={type} selected={filters.type === type}>
              {TYPE_WORDS[type]}
            </option>
          ))}
        </select>
      </div>
      <div class="actions">
        <button type="submit">Show</button>
        <a href="/app/history">Clear filters</a>
      </div>
    </form>
  )
}

/** A wait in the largest units that say it: "under a second", "4 s", "2 min 5 s", "3 h 10 min". */
export function durationWords(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 1) return 'under a second'
  if (s < 60) return `${s} s`
  const min = Math.floor(s / 60)
  if (min < 60) return s % 60 ? `${min} min ${s % 60} s` : `${min} min`
  const h = Math.floor(min / 60)
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`
  return `${Math.floor(h / 24)} days`
}

/** When it was due: the time it was scheduled for, else when it was made. */
const dueAt = (n: ApiNotification) => Date.parse(n.scheduledAt ?? n.createdAt)

type Delivery = ApiNotification['deliveryStatus'][number]

function Took({ n, d }: { n: ApiNotification; d: Delivery }) {
  if (!d.sentAt) return null
  // A notification made early for its time (none today) would count from when it was due.
  const took = Math.max(0, Date.parse(d.sentAt) - dueAt(n))
  return <span class="took">, {durationWords(took)} after it was due</span>
}

function Attempts({ d, label }: { d: Delivery; label: string }) {
  if (d.attempts.length === 0) return null
  return (
    <ol class="attempts" aria-label={`Attempts by ${label}`}>
      {d.attempts.map((a) => (
        <li data-outcome={a.outcome}>
          <UtcTime iso={a.at} /> {a.message}
        </li>
      ))}
    </ol>
  )
}

function Deliveries({ n }: { n: ApiNotification }) {
  if (n.deliveryStatus.length === 0) return null
  return (
    <ul class="deliveries" aria-label={`Channels of “${n.title}”`}>
      {n.deliveryStatus.map((d) => {
        const label = Object.hasOwn(CHANNEL_WORDS, d.channel) ? CHANNEL_WORDS[d.channel] : d.channel
        return (
          <li data-channel={d.channel} data-status={d.status}>
            {label}: <strong>{STATUS_WORDS[d.status] ?? d.status}</strong>
            {d.retryCount > 0 &&
              ` after ${d.retryCount} ${d.retryCount === 1 ? 'retry' : 'retries'}`}
            <Took n={n} d={d} />
            {d.error && <span class="delivery-error"> ({d.error})</span>}
            <Attempts d={d} label={label} />
          </li>
        )
      })}
    </ul>
  )
}

function Item({ n, query }: { n: ApiNotification; query: string }) {
  const titleId = `notification-${n.id}-title`
  return (
    <li
      class={n.isRead ? 'card notification' : 'card notification unread'}
      id={`notification-${n.id}`}
      data-id={n.id}
      data-status={n.status}
      data-type={n.type}
      aria-labelledby={titleId}
    >
      <h3 id={titleId}>
        {!n.isRead && <span class="badge">New</span>} {n.title}
      </h3>
      <p class="meta">
        {TYPE_WORDS[n.type] ?? n.type} · <UtcTime iso={n.createdAt} />
      </p>
      <p class="message">{n.message}</p>
      <p class="status">
        Status: <strong>{STATUS_WORDS[n.status] ?? n.status}</strong>
      </p>
      <Deliveries n={n} />
      {(!n.isRead || retryable(n)) && (
        <div class="actions item-actions">
          {retryable(n) && (
            <form method="post" action={`/app/history/${n.id}/retry${query}`}>
              <CsrfField />
              <button type="submit" aria-describedby={titleId}>
                Retry now
              </button>
            </form>
          )}
          {!n.isRead && (
            <form method="post" action={`/app/history/${n.id}/read${query}`}>
              <CsrfField />
              <button type="submit" class="button-secondary" aria-describedby={titleId}>
                Mark read
              </button>
            </form>
          )}
        </div>
      )}
    </li>
  )
}

function Pages({ filters, total }: { filters: HistoryFilters; total: number }) {
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE))
  if (pages === 1 && filters.page === 1) return null
  const link = (page: number) => `/app/history${historyQueryString({ ...filters, page })}`
  return (
    <nav class="pager" aria-label="Pages of notifications">
      {filters.page > 1 && (
        <a rel="prev" href={link(Math.min(filters.page - 1, pages))}>
          Newer
        </a>
      )}
      <span>
        Page {filters.page} of {pages}
      </span>
      {filters.page < pages && (
        <a rel="next" href={link(filters.page + 1)}>
          Older
        </a>
      )}
    </nav>
  )
}

export function HistoryPage(props: HistoryPageProps) {
  const { filters, notifications, total } = props
  const query = historyQueryString(filters)
  const filtered =
    filters.status !== undefined || filters.type !== undefined || filters.channel !== undefined
  return (
    <AppFrame
      title="Notification history"
      session={props.session}
      csrf={props.csrf}
      current="history"
    >
      <Notice>{props.notice}</Notice>
      <FormErrors errors={props.errors ?? []} />
      <Filters filters={filters} />
      <div class="list-heading">
        <h2 id="count">
          {total} {filtered ? 'matching ' : ''}notification{total === 1 ? '' : 's'}
        </h2>
        {/* Every unread notification of the account, not only this page's. */}
        {total > 0 && (
          <form method="post" action={`/app/history/read-all${query}`}>
            <CsrfField />
            <button type="submit" class="button-secondary">
              Mark all read
            </button>
          </form>
        )}
      </div>
      <p id="zone-note" class="note">
        Times are in UTC.
      </p>
      {notifications.length === 0 ? (
        <p id="no-notifications">
          {filtered || filters.page > 1
            ? 'No notifications here.'
            : 'No notifications yet: reminders show here once they are sent.'}
        </p>
      ) : (
        <ol id="notifications" class="cards">
          {notifications.map((n) => (
            <Item n={n} query={query} />
          ))}
        </ol>
      )}
      <Pages filters={filters} total={total} />
    </AppFrame>
  )
}
