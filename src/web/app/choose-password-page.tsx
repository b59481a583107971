// /app/verify/password: the first password of an account whose address was just proven without
// the sign-up's session, which took away the password chosen at sign-up.
import { PasswordField } from './account-fields.tsx'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import { formErrors, type FormPageProps } from './form-page.ts'

export function ChoosePasswordPage(props: FormPageProps) {
  return (
    <AppFrame title="Choose your password" session={props.session} csrf={props.csrf}>
      <Notice>{props.notice}</Notice>
      <p class="lead">
        Your email address is verified. The code was entered without the session that signed up, so
        the password chosen at sign-up no longer works and every other session was signed out:
        whoever signed up with your address cannot use it. Choose the password you will sign in
        with.
      </p>
      <form
        id="choose-password-form"
        class="account-form"
        method="post"
        action="/app/verify/password"
        novalidate
      >
        <FormErrors errors={formErrors(props)} />
        <CsrfField />
        <PasswordField form={props} name="newPassword" label="New password" />
        <div class="actions">
          <button type="submit">Set the password</button>
        </div>
      </form>
    </AppFrame>
  )
}
