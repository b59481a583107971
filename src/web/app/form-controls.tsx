// The parts of a web app form: a labelled field with its hint and error tied to it (aria-
// describedby, aria-invalid), the form's own errors as an alert, and a notice after a step.
import type { Child } from 'hono/jsx'

export interface FieldProps {
  name: string
  label: string
  type?: 'text' | 'email' | 'password'
  /** The submitted text to show again; never for a password. */
  value?: string
  error?: string
  hint?: string
  autocomplete?: string
  inputmode?: 'numeric' | 'email' | 'text'
  pattern?: string
  maxlength?: number
  minlength?: number
  required?: boolean
}

export function Field(props: FieldProps) {
  const { name, label, error, hint } = props
  const id = `field-${name}`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  // The error first: a screen reader says what is wrong before the standing hint.
  const described = [error && errorId, hint && hintId].filter(Boolean).join(' ')
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {hint && (
        <p id={hintId} class="hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        name={name}
        type={props.type ?? 'text'}
        value={props.type === 'password' ? undefined : props.value}
        autocomplete={props.autocomplete}
        inputmode={props.inputmode}
        pattern={props.pattern}
        maxlength={props.maxlength}
        minlength={props.minlength}
        required={props.required ?? true}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {error && (
        <p id={errorId} class="field-error">
          {error}
        </p>
      )}
    </div>
  )
}

/** The form's own errors (wrong password, an expired code...), announced when the page loads. */
export function FormErrors({ errors }: { errors: string[] }) {
  if (errors.length === 0) return null
  return (
    <div id="form-errors" class="form-errors" role="alert">
      {errors.length === 1 ? (
        <p>{errors[0]}</p>
      ) : (
        <ul>
          {errors.map((error) => (
            <li>{error}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** What the last step did (a code was sent, the password changed), read out politely. */
export function Notice({ children }: { children?: Child }) {
  // No notice, no element: pages pass theirs whether or not there is one.
  if (children === undefined || children === null || children === '') return null
  return (
    <p id="notice" class="notice" role="status">
      {children}
    </p>
  )
}
