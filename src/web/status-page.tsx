// GET /status's page: the service's health for anyone, in words and without a script (times are
// UTC; the app script, when it runs, shows them in the reader's zone): the platforms, the
// incidents of 30 days, each channel's last 24 hours of deliveries and the cron jobs' last runs.
import { Document } from './document.tsx'
import { formatTime } from '../lib/time-words.ts'
import type { ServiceStatus } from './status-schemas.ts'

const TITLE = 'Service status'

function When({ iso }: { iso: string }) {
  return <time datetime={iso}>{formatTime(Date.parse(iso))}</time>
}

/** "40 s", "3.5 min", "2.1 h": a delay as a person reads it. */
export function delayWords(seconds: number | null): string {
  if (seconds === null) return 'none sent'
  if (seconds < 90) return `${Math.round(seconds)} s`
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}

const STATE_WORDS: Record<string, string> = {
  ok: 'OK',
  degraded: 'Degraded',
  failing: 'Failing',
  blocked: 'Blocked',
  stopped: 'Stopped',
  unknown: 'Incident',
}

const OUTCOME_WORDS: Record<string, string> = {
  ok: 'succeeded',
  failed: 'failed',
  running: 'running',
  unfinished: 'did not finish',
}

const JOB_WORDS: Record<string, string> = {
  scheduler: 'Reminder scheduler',
  sync: 'Contest sync',
  cleanup: 'Daily cleanup',
}

function Platforms({ status }: { status: ServiceStatus }) {
  const shown = status.platforms.filter((p) => p.enabled)
  return (
    <section aria-labelledby="platforms-heading">
      <h2 id="platforms-heading">Platforms</h2>
      <p class="note">Upcoming counts are as of each platform's last sync.</p>
      <ul id="status-platforms" class="status-list">
        {shown.map((p) => (
          <li data-platform={p.id} data-state={p.state}>
            <strong>{p.name}</strong>: <span class="state">{STATE_WORDS[p.state]}</span>.{' '}
            {p.upcoming} upcoming; from {p.source === 'own' ? 'its own site' : 'clist.by'};{' '}
            {p.lastSuccess ? (
              <>
                last good sync <When iso={p.lastSuccess} />
              </>
            ) : (
              'never synced yet'
            )}
            .
          </li>
        ))}
      </ul>
    </section>
  )
}

function Incidents({ status }: { status: ServiceStatus }) {
  return (
    <section aria-labelledby="incidents-heading">
      <h2 id="incidents-heading">Incidents in the last 30 days</h2>
      {status.incidents.length === 0 ? (
        <p id="no-incidents">None.</p>
      ) : (
        <ul id="status-incidents" class="status-list">
          {status.incidents.map((i) => (
            <li data-scope={i.scope} data-subject={i.subject} data-open={i.endedAt ? 'no' : 'yes'}>
              <strong>{i.name}</strong>: {(STATE_WORDS[i.kind] ?? i.kind).toLowerCase()}, from{' '}
              <When iso={i.startedAt} />{' '}
              {i.endedAt ? (
                <>
                  to <When iso={i.endedAt} />
                </>
              ) : (
                <span class="state">(ongoing)</span>
              )}
              .{i.detail && <span class="note"> {i.detail}.</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Deliveries({ status }: { status: ServiceStatus }) {
  const { deliveries } = status
  const shown = deliveries.channels.filter((c) => c.enabled || c.sent + c.failed + c.retried > 0)
  const atLeast = deliveries.limited ? 'at least ' : ''
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries in the last {deliveries.windowHours} hours</h2>
      <p class="note">
        Delay: from the time a reminder was due to the time it was sent (median, and 95 of 100 sent
        within).
      </p>
      <ul id="status-channels" class="status-list">
        {shown.map((c) => (
          <li data-channel={c.channel}>
            <strong>{c.label}</strong>
            {c.enabled ? '' : ' (off)'}: {atLeast}
            <span class="sent">{c.sent}</span> sent, <span class="retried">{c.retried}</span>{' '}
            retried, <span class="failed">{c.failed}</span> failed; delay{' '}
            {c.medianDelaySeconds === null ? (
              'none sent'
            ) : (
              <>
                median {delayWords(c.medianDelaySeconds)}, 95% within{' '}
                {delayWords(c.p95DelaySeconds)}
              </>
            )}
            .
          </li>
        ))}
      </ul>
    </section>
  )
}

function Jobs({ status }: { status: ServiceStatus }) {
  return (
    <section aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">Scheduled jobs</h2>
      <ul id="status-jobs" class="status-list">
        {status.jobs.map((j) => (
          <li data-job={j.job} data-outcome={j.lastRun?.outcome ?? 'none'}>
            <strong>{JOB_WORDS[j.job] ?? j.job}</strong> (<code>{j.cron}</code>):{' '}
            {j.lastRun ? (
              <>
                last run <When iso={j.lastRun.startedAt} />, {OUTCOME_WORDS[j.lastRun.outcome]}
              </>
            ) : (
              'no run in the last 7 days'
            )}
            .
          </li>
        ))}
      </ul>
    </section>
  )
}

export function StatusPage({ status }: { status: ServiceStatus }) {
  const open = status.incidents.filter((i) => !i.endedAt).length
  return (
    <Document title={TITLE} skipLabel="Skip to the status">
      <header>
        <h1>{TITLE}</h1>
        <p id="status-summary" class="lead" data-status={status.status}>
          {status.status === 'ok'
            ? 'Everything is working.'
            : open > 0
              ? `${open} open incident${open === 1 ? '' : 's'}: see below.`
              : 'A platform is not syncing well: see below.'}
        </p>
      </header>
      <main id="main" tabindex={-1}>
        <p class="note">
          As of <When iso={status.generatedAt} /> (updated every minute; also as{' '}
          <a href="/status.json">JSON</a>).
        </p>
        <p id="zone-note" class="note">
          Times are in UTC.
        </p>
        <Incidents status={status} />
        <Platforms status={status} />
        <Deliveries status={status} />
        <Jobs status={status} />
      </main>
    </Document>
  )
}
