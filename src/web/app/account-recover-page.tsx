// /app/account/recover: an account deleted in the last 30 days, restored with its email and
// password (the API's POST /auth/recover-account), which also signs this browser in.
import { EmailField, PasswordField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { formErrors, type FormPageProps } from './form-page.ts'
import { RECOVERY_DAYS } from './account-page.tsx'

export function RecoverPage(props: FormPageProps) {
  return (
    <AppFrame title="Recover your account" session={props.session} csrf={props.csrf}>
      <Notice>{props.notice}</Notice>
      <p class="lead">
        A deleted account can be restored for {RECOVERY_DAYS} days, with everything it held. Enter
        its email and password.
      </p>
      <form
        id="recover-form"
        class="account-form"
        method="post"
        action="/app/account/recover"
        novalidate
      >
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <EmailField form={props} />
        <PasswordField form={props} current />
        <div class="actions">
          <button type="submit">Recover my account</button>
        </div>
      </form>
    </AppFrame>
  )
}
