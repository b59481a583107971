// /app/verify: the 6-digit code mailed at sign-up, and a second button that mails a new one.
import { CodeField, EmailField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { formErrors, type FormPageProps } from './form-page.ts'

export function VerifyPage(props: FormPageProps) {
  const email = props.values?.email ?? props.session?.user.email
  return (
    <AppFrame title="Verify your email" session={props.session} csrf={props.csrf}>
      <Notice>{props.notice}</Notice>
      <p class="lead">Enter the 6-digit code we emailed you. It expires after 10 minutes.</p>
      <form id="verify-form" class="account-form" method="post" action="/app/verify" novalidate>
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <EmailField form={props} value={email} />
        <CodeField form={props} />
        <div class="actions">
          {/* First in the form, so Enter in a field verifies rather than sends a new code. */}
          <button type="submit">Verify</button>
          <button
            type="submit"
            class="link-button"
            formaction="/app/verify/resend"
            formnovalidate
            id="resend-code"
          >
            Send a new code
          </button>
        </div>
      </form>
    </AppFrame>
  )
}
