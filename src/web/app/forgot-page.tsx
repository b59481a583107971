// /app/forgot: the address to mail a password reset code to.
import { EmailField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors } from './form-controls.tsx'
import { formErrors, type FormPageProps } from './form-page.ts'

export function ForgotPage(props: FormPageProps) {
  return (
    <AppFrame title="Reset your password" session={props.session} csrf={props.csrf}>
      <p class="lead">
        We email you a 6-digit code; enter it with a new password on the next page.
      </p>
      <form id="forgot-form" class="account-form" method="post" action="/app/forgot" novalidate>
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <EmailField form={props} />
        <div class="actions">
          <button type="submit">Email me a code</button>
          <a href="/app/reset">I already have a code</a>
        </div>
      </form>
    </AppFrame>
  )
}
