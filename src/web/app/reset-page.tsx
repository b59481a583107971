// /app/reset: the mailed code and a new password; every session of the account ends with it.
import { CodeField, EmailField, PasswordField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { formErrors, type FormPageProps } from './form-page.ts'

export function ResetPage(props: FormPageProps) {
  return (
    <AppFrame title="Choose a new password" session={props.session} csrf={props.csrf}>
      <Notice>{props.notice}</Notice>
      <form id="reset-form" class="account-form" method="post" action="/app/reset" novalidate>
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <EmailField form={props} />
        <CodeField form={props} />
        <PasswordField
          form={props}
          name="newPassword"
          label="New password"
          hint="At least 8 characters. You are signed out everywhere once it is set."
        />
        <div class="actions">
          <button type="submit">Set the new password</button>
          <a href="/app/forgot">Send a new code</a>
        </div>
      </form>
    </AppFrame>
  )
}
