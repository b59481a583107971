// /app/signup: name, email and password; a code is then mailed to verify the address.
import { EmailField, PasswordField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { Field, FormErrors } from './form-controls.tsx'
import { fieldError, formErrors, type FormPageProps } from './form-page.ts'
import { GoogleButton } from './google-button.tsx'

export function SignupPage(props: FormPageProps & { google: boolean }) {
  return (
    <AppFrame title="Create an account" csrf={props.csrf} current="signup">
      <form id="signup-form" class="account-form" method="post" action="/app/signup" novalidate>
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        {/* The page's script puts the browser's time zone here; left empty, the account keeps UTC. */}
        <input type="hidden" name="timeZone" value="" data-browser-zone />
        <Field
          name="name"
          label="Name"
          autocomplete="name"
          maxlength={100}
          value={props.values?.name}
          error={fieldError(props, 'name')}
        />
        <EmailField form={props} hint="We send a 6-digit code to this address to verify it." />
        <PasswordField form={props} hint="At least 8 characters." />
        <div class="actions">
          <button type="submit">Create account</button>
        </div>
      </form>
      {props.google && <GoogleButton />}
      <p class="switch">
        Already have an account? <a href="/app/signin">Sign in</a>
      </p>
    </AppFrame>
  )
}
