// The fields the account forms share (sign-up, sign-in, verify, forgot, reset, recovery): each
// with its autocomplete hint, limits and error, so a browser's password manager sees the same
// form everywhere.
import { Field } from './form-controls.tsx'
import { fieldError, type FormPageProps } from './form-page.ts'

interface FieldOf {
  form: FormPageProps
  hint?: string
}

/** The account's address, shown again after a refusal. */
export function EmailField({ form, hint, value }: FieldOf & { value?: string }) {
  return (
    <Field
      name="email"
      label="Email"
      type="email"
      autocomplete="email"
      hint={hint}
      value={value ?? form.values?.email}
      error={fieldError(form, 'email')}
    />
  )
}

/** The emailed 6-digit code. */
export function CodeField({ form }: FieldOf) {
  return (
    <Field
      name="code"
      label="Code"
      autocomplete="one-time-code"
      inputmode="numeric"
      pattern="[0-9]{6}"
      maxlength={6}
      value={form.values?.code}
      error={fieldError(form, 'code')}
    />
  )
}

/** The password in use (`current`), or a new one with the API's 8 to 128 characters. */
export function PasswordField({
  form,
  hint,
  name = 'password',
  label = 'Password',
  current = false,
}: FieldOf & { name?: string; label?: string; current?: boolean }) {
  return (
    <Field
      name={name}
      label={label}
      type="password"
      autocomplete={current ? 'current-password' : 'new-password'}
      hint={hint}
      {...(!current && { minlength: 8, maxlength: 128 })}
      error={fieldError(form, name)}
    />
  )
}
