// /app/signin: email and password, links to a reset and to a new account, and Google when set up.
import { EmailField, PasswordField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { formErrors, type FormPageProps } from './form-page.ts'
import { GoogleButton } from './google-button.tsx'
import { APP_HOME } from './next-path.ts'

export interface SigninPageProps extends FormPageProps {
  /** Where to go once signed in (already checked by safeNext). */
  next: string
  google: boolean
}

export function SigninPage(props: SigninPageProps) {
  const { next } = props
  const action = next === APP_HOME ? '/app/signin' : `/app/signin?${new URLSearchParams({ next })}`
  return (
    <AppFrame title="Sign in" csrf={props.csrf} current="signin">
      <Notice>{props.notice}</Notice>
      <form id="signin-form" class="account-form" method="post" action={action} novalidate>
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <EmailField form={props} />
        <PasswordField form={props} current />
        <div class="actions">
          <button type="submit">Sign in</button>
          <a href="/app/forgot">Forgot your password?</a>
        </div>
      </form>
      {props.google && <GoogleButton next={next === APP_HOME ? undefined : next} />}
      <p class="switch">
        New here? <a href="/app/signup">Create an account</a>
      </p>
    </AppFrame>
  )
}
