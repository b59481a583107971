// /app/account: what deactivating and deleting the account do, each behind its own confirmation
// form, reactivation for an account that is deactivated, and what the account's alerts reach with
// the button that signs out everywhere and unlinks it all.
import type { LinkedDestination } from '../../account/destinations.ts'
import { RECOVERY_PERIOD_MS } from '../../account/recovery.ts'
import { DAY_MS } from '../../lib/time.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { Field, FormErrors, Notice } from './form-controls.tsx'
import { fieldError, formErrors, type FormPageProps } from './form-page.ts'
import type { WebSession } from './web-session.ts'

export const RECOVERY_DAYS = RECOVERY_PERIOD_MS / DAY_MS

export interface AccountPageProps extends FormPageProps {
  session: WebSession
  /** What the account's alerts reach besides its email address. */
  linked: LinkedDestination[]
}

function SignOutEverywhere({ linked }: { linked: LinkedDestination[] }) {
  return (
    <section aria-labelledby="everywhere-heading">
      <h2 id="everywhere-heading">Sign out everywhere and unlink every destination</h2>
      {linked.length > 0 ? (
        <>
          <p>Besides your email address, your alerts go to:</p>
          <ul id="linked-destinations">
            {linked.map((destination) => (
              <li>{destination.label}</li>
            ))}
          </ul>
        </>
      ) : (
        <p id="linked-destinations">Your alerts go to your email address only.</p>
      )}
      <p>
        If someone else may have used your account, end every session (every browser and app, this
        one included) and remove all of these at once: the calendar feed address stops working and
        Telegram, Discord, Slack, Web Push and the phone number are unlinked. Your settings and
        history stay; link what you use again afterwards.
      </p>
      <form id="everywhere-form" method="post" action="/app/account/sign-out-everywhere">
        <CsrfField />
        <button type="submit" class="button-danger">
          Sign out everywhere and unlink every destination
        </button>
      </form>
    </section>
  )
}

function Deactivate(props: AccountPageProps) {
  const error = fieldError(props, 'confirm')
  return (
    <section aria-labelledby="deactivate-heading">
      <h2 id="deactivate-heading">Deactivate your account</h2>
      <p>
        Deactivating stops your alerts: no contest reminders or digests on any channel, and your
        calendar feed stops answering. Everything else is kept: your settings, followed and muted
        contests and notification history. This browser is signed out; sign in again any time and
        reactivate the account here.
      </p>
      <form
        id="deactivate-form"
        class="account-form"
        method="post"
        action="/app/account/deactivate"
        novalidate
      >
        <CsrfField />
        <div class={error ? 'field check field-invalid' : 'field check'}>
          <input
            type="checkbox"
            id="field-confirm"
            name="confirm"
            value="yes"
            required
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'field-confirm-error' : undefined}
          />
          <label for="field-confirm">I understand I get no alerts until I reactivate it</label>
          {error && (
            <p id="field-confirm-error" class="field-error">
              {error}
            </p>
          )}
        </div>
        <div class="actions">
          <button type="submit">Deactivate my account</button>
        </div>
      </form>
    </section>
  )
}

function Reactivate() {
  return (
    <section aria-labelledby="reactivate-heading">
      <h2 id="reactivate-heading">Your account is deactivated</h2>
      <p>
        No alerts are sent to you while it is deactivated. Reactivate it to get them again, with the
        settings you had.
      </p>
      <form id="activate-form" method="post" action="/app/account/activate">
        <CsrfField />
        <button type="submit">Reactivate my account</button>
      </form>
    </section>
  )
}

function Delete(props: AccountPageProps) {
  return (
    <section aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete your account</h2>
      <p>
        Deleting signs you out everywhere, in every browser and app, and stops every alert at once.
        For {RECOVERY_DAYS} days the account can still be restored with its email and password (
        <a href="/app/account/recover">recover an account</a>); after that it is removed for good,
        with your settings, followed contests, notification history and calendar feed, and the email
        address is free again.
      </p>
      <form
        id="delete-form"
        class="account-form"
        method="post"
        action="/app/account/delete"
        novalidate
      >
        <CsrfField />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="off"
          hint={`Type ${props.session.user.email} to confirm.`}
          value={props.values?.email}
          error={fieldError(props, 'email')}
        />
        <div class="actions">
          <button type="submit" class="button-danger">
            Delete my account
          </button>
        </div>
      </form>
    </section>
  )
}

export function AccountPage(props: AccountPageProps) {
  const { user } = props.session
  return (
    <AppFrame title="Account" session={props.session} csrf={props.csrf} current="account">
      <Notice>{props.notice}</Notice>
      <FormErrors errors={formErrors(props)} />
      <p id="account-summary">
        Signed in as <strong>{user.name}</strong> ({user.email}).{' '}
        {user.isActive ? 'Your account is active.' : 'Your account is deactivated.'}
      </p>
      {user.isActive ? <Deactivate {...props} /> : <Reactivate />}
      <SignOutEverywhere linked={props.linked} />
      <Delete {...props} />
    </AppFrame>
  )
}
