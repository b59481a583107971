// /app/reset: the mailed code and a new password; every session of the account ends with it.
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { Field, FormErrors, Notice } from './form-controls.tsx'
import { fieldError, formErrors, type FormPageProps } from './form-page.ts'

export function ResetPage(props: FormPageProps) {
  return (
    <AppFrame title="Choose a new password" session={props.session} csrf={props.csrf}>
      {props.notice && <Notice>{props.notice}</Notice>}
      <form id="reset-form" class="account-form" method="post" action="/app/reset" novalidate>
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="email"
          value={props.values?.email}
          error={fieldError(props, 'email')}
        />
        <Field
          name="code"
          label="Code"
          autocomplete="one-time-code"
          inputmode="numeric"
          pattern="[0-9]{6}"
          maxlength={6}
          value={props.values?.code}
          error={fieldError(props, 'code')}
        />
        <Field
          name="newPassword"
          label="New password"
          type="password"
          autocomplete="new-password"
          hint="At least 8 characters. You are signed out everywhere once it is set."
          minlength={8}
          maxlength={128}
          error={fieldError(props, 'newPassword')}
        />
        <div class="actions">
          <button type="submit">Set the new password</button>
          <a href="/app/forgot">Send a new code</a>
        </div>
      </form>
    </AppFrame>
  )
}
