// /app/handles: the account's own handles on judges, each with its state and, while unproven,
// what to do to prove it (the token, the field, the judge's page, until when; on Codeforces also a
// compilation error to a problem the service picks), a form to link another; and
// /app/handles/{id}: one handle's rating chart with its table.
import {
  CHALLENGE_TTL_MS,
  CHECK_GRACE_MS,
  challengeCheckable,
  challengeOf,
  problemWords,
  submissionProofOf,
} from '../../results/challenge.ts'
import type { HandleHistory } from '../../results/history.ts'
import type { JudgeHandleRow } from '../../results/handles.ts'
import { resultsJudge, resultsJudges } from '../../results/judges.ts'
import { MINUTE_MS, toIso } from '../../lib/time.ts'
import { formatTime } from '../../lib/time-words.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { Field, FormErrors, Notice } from './form-controls.tsx'
import type { FormErrors as Errors } from './form-body.ts'
import { RatingChart } from './rating-chart.tsx'
import type { WebSession } from './web-session.ts'

export interface HandlesPageProps {
  session: WebSession
  csrf: string
  handles: JudgeHandleRow[]
  now: number
  notice?: string
  /** What a refused step said: a form's fields, or a proof the judge did not confirm. */
  errors?: Errors
  values?: Record<string, string>
}

const judgeName = (platform: string) => resultsJudge(platform)?.module.name ?? platform

function Proof({ row, now }: { row: JudgeHandleRow; now: number }) {
  return (
    <>
      <TokenProof row={row} now={now} />
      <ChallengeProof row={row} now={now} />
    </>
  )
}

/**
 * The second proof, where the judge offers it: a button that asks for a challenge, then the
 * problem, its deadline and a button that checks the submission. Plain forms, as every step here.
 */
function ChallengeProof({ row, now }: { row: JudgeHandleRow; now: number }) {
  const proof = submissionProofOf(row.platform)
  if (!proof) return null
  const challenge = challengeOf(row)
  const open = challenge !== undefined && challengeCheckable(challenge, now)
  const headingId = `handle-${row.id}-challenge`
  const ask = (label: string, secondary: boolean) => (
    <form method="post" action={`/app/handles/${row.id}/challenge`}>
      <CsrfField />
      <button type="submit" class={secondary ? 'button-secondary' : undefined}>
        {label}
        <span class="visually-hidden"> of {row.handle}</span>
      </button>
    </form>
  )
  return (
    <section class="challenge" aria-labelledby={headingId} data-open={open ? 'true' : 'false'}>
      <h4 id={headingId}>Or prove it by a {proof.what}</h4>
      {open ? (
        <>
          <p class="status">
            Signed in to {judgeName(row.platform)} as {row.handle}, submit code that does not
            compile to problem{' '}
            <a class="challenge-problem" href={challenge.problem.url}>
              {problemWords(challenge.problem)}
            </a>{' '}
            before{' '}
            <time class="deadline" datetime={toIso(challenge.expiresAt)}>
              {formatTime(challenge.expiresAt)}
            </time>
            , then check:
          </p>
          <p class="hint">
            Any language; a {proof.what} costs nothing outside a contest. A submission made in time
            is still found when checked up to {CHECK_GRACE_MS / MINUTE_MS} minutes later.
          </p>
          <form method="post" action={`/app/handles/${row.id}/verify`}>
            <CsrfField />
            <input type="hidden" name="method" value="submission" />
            <button type="submit">
              Check the submission<span class="visually-hidden"> of {row.handle}</span>
            </button>
          </form>
          {ask('Another problem', true)}
        </>
      ) : (
        <>
          <p class="hint">
            {challenge ? 'The last challenge expired. ' : ''}The service picks a well-known problem;
            you submit code that does not compile to it within {CHALLENGE_TTL_MS / MINUTE_MS}{' '}
            minutes.
          </p>
          {ask(`Prove by a ${proof.what}`, true)}
        </>
      )}
    </section>
  )
}

function TokenProof({ row, now }: { row: JudgeHandleRow; now: number }) {
  const proof = resultsJudge(row.platform)?.results.proof
  const live = row.proofToken !== null && (row.proofExpiresAt ?? 0) > now
  if (!live) {
    return (
      <p class="status">
        Not proven. The token expired: link the handle again below for a fresh one.
      </p>
    )
  }
  return (
    <div class="proof">
      <p class="status">
        <strong>Not proven yet.</strong> Place this token in {proof?.where ?? 'your profile'}
        {proof?.editUrl && (
          <>
            {' '}
            (<a href={proof.editUrl}>{judgeName(row.platform)} settings</a>)
          </>
        )}
        , save, then check:
      </p>
      <p>
        <code class="token">{row.proofToken}</code>
      </p>
      <p class="hint">The token proves until {formatTime(row.proofExpiresAt!)}.</p>
      <form method="post" action={`/app/handles/${row.id}/verify`}>
        <CsrfField />
        <button type="submit">
          Check the proof<span class="visually-hidden"> of {row.handle}</span>
        </button>
      </form>
    </div>
  )
}

function Item({ row, now }: { row: JudgeHandleRow; now: number }) {
  const titleId = `handle-${row.id}-title`
  return (
    <li
      class="card handle"
      data-handle-id={row.id}
      data-state={row.state.toLowerCase()}
      aria-labelledby={titleId}
    >
      <h3 id={titleId}>
        {judgeName(row.platform)}: {row.handle}
      </h3>
      {row.state === 'PROVEN' ? (
        <p class="status">
          <strong>Proven</strong>
          {row.provenAt !== null && ` since ${formatTime(row.provenAt)}`}
          {row.rating !== null && ` · rating ${row.rating}`}.{' '}
          <a href={`/app/handles/${row.id}`}>
            Rating chart<span class="visually-hidden"> of {row.handle}</span>
          </a>
        </p>
      ) : (
        <Proof row={row} now={now} />
      )}
      <form method="post" action={`/app/handles/${row.id}/remove`}>
        <CsrfField />
        <button type="submit" class="button-secondary">
          Remove<span class="visually-hidden"> {row.handle}</span>
        </button>
      </form>
    </li>
  )
}

export function HandlesPage(props: HandlesPageProps) {
  const { handles, now, errors, values = {} } = props
  return (
    <AppFrame title="Handles" session={props.session} csrf={props.csrf} current="handles">
      <p class="lead">
        Your handles on the judges: once proven yours, the service tells you your rank and rating
        change after each contest.
      </p>
      {props.notice && <Notice>{props.notice}</Notice>}
      {errors && errors.form.length > 0 && <FormErrors errors={errors.form} />}
      {handles.length === 0 ? (
        <p id="no-handles">No handle linked yet.</p>
      ) : (
        <ul id="handles" class="cards">
          {handles.map((row) => (
            <Item row={row} now={now} />
          ))}
        </ul>
      )}
      <section aria-labelledby="link-heading">
        <h2 id="link-heading">Link a handle</h2>
        <form id="link-handle" method="post" action="/app/handles" novalidate>
          <CsrfField />
          <div class={errors?.fields.platform ? 'field field-invalid' : 'field'}>
            <label for="field-platform">Judge</label>
            <select
              id="field-platform"
              name="platform"
              aria-invalid={errors?.fields.platform ? 'true' : undefined}
              aria-describedby={errors?.fields.platform ? 'field-platform-error' : undefined}
            >
              {resultsJudges().map(({ module }) => (
                <option value={module.id} selected={values.platform === module.id}>
                  {module.name}
                </option>
              ))}
            </select>
            {errors?.fields.platform && (
              <p id="field-platform-error" class="field-error">
                {errors.fields.platform}
              </p>
            )}
          </div>
          <Field
            name="handle"
            label="Handle"
            value={values.handle}
            error={errors?.fields.handle}
            hint="As it is on the judge; the service shows a token to place in your profile"
            autocomplete="username"
            maxlength={64}
          />
          <div class="actions">
            <button type="submit">Link</button>
          </div>
        </form>
      </section>
    </AppFrame>
  )
}

export function HandleChartPage(props: {
  session: WebSession
  csrf: string
  row: JudgeHandleRow
  history: HandleHistory
}) {
  const { row, history } = props
  const name = judgeName(row.platform)
  const rank = resultsJudge(row.platform)?.results.rank
  return (
    <AppFrame
      title={`${row.handle} on ${name}`}
      session={props.session}
      csrf={props.csrf}
      current="handles"
    >
      <p class="lead">
        {history.current
          ? `Rating ${history.current.rating}${history.current.title ? `, ${history.current.title}` : ''}.`
          : 'No rated contest yet.'}{' '}
        <a href="/app/handles">All handles</a>
      </p>
      <RatingChart label={`${row.handle} on ${name}`} points={history.points} rank={rank} />
    </AppFrame>
  )
}
