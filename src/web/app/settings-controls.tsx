// The inputs of the settings forms, each labelled and tied to its hint and error (aria-describedby,
// aria-invalid) as the account forms' Field is: checkbox groups, radios, selects, number + unit
// rows, text inputs, and a section with its heading and the notice of its last save.
import type { Child } from 'hono/jsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import type { FormErrors as Errors } from './form-body.ts'
import { UNITS, type Unit } from './settings-duration.ts'

export const fieldId = (name: string) => `field-${name}`
const errorId = (name: string) => `field-${name}-error`
const hintId = (name: string) => `field-${name}-hint`

/** The ids that describe a control: its error first (read before the hint), then its hint. */
export function describedBy(name: string, error?: string, hint?: Child, more: string[] = []) {
  const ids = [error && errorId(name), hint && hintId(name), ...more].filter(Boolean)
  return ids.length > 0 ? ids.join(' ') : undefined
}

export function Hint({ name, children }: { name: string; children?: Child }) {
  if (!children) return null
  return (
    <p id={hintId(name)} class="hint">
      {children}
    </p>
  )
}

export function FieldError({ name, error }: { name: string; error?: string }) {
  if (!error) return null
  return (
    <p id={errorId(name)} class="field-error">
      {error}
    </p>
  )
}

export interface SectionProps {
  id: string
  title: string
  notice?: string
  children?: Child
}

/** A section of the page: its heading (the contents links to it) and its last save's notice. */
export function Section({ id, title, notice, children }: SectionProps) {
  return (
    <section id={id} class="settings-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <Notice>{notice}</Notice>
      {children}
    </section>
  )
}

export interface SettingsFormProps {
  /** POST /app/settings/<action>. */
  action: string
  /** The form's own errors, when this form came back. */
  errors?: Errors
  /** The submit button's words; a distinct name per form, for people and tests alike. */
  submit: string
  /** A quieter look for a second button of a section (remove, unlink). */
  secondary?: boolean
  children?: Child
}

/** A form of the page: posted without JavaScript, with the CSRF token and the form's errors. */
export function SettingsForm({ action, errors, submit, secondary, children }: SettingsFormProps) {
  return (
    <form class="settings-form" method="post" action={`/app/settings/${action}`} novalidate>
      {errors && <FormErrors errors={errors.form} />}
      <CsrfField />
      {children}
      <div class="actions">
        <button type="submit" class={secondary ? 'button-secondary' : undefined}>
          {submit}
        </button>
      </div>
    </form>
  )
}

export interface Choice {
  value: string
  label: string
}

export interface CheckboxGroupProps {
  name: string
  legend: string
  choices: Choice[]
  checked: string[]
  error?: string
  hint?: Child
  /** Ids are `<idPrefix>-<value>`; the name's by default. */
  idPrefix?: string
}

export function CheckboxGroup(props: CheckboxGroupProps) {
  const { name, legend, choices, checked, error, hint } = props
  const prefix = props.idPrefix ?? name
  return (
    <fieldset
      class={error ? 'choice-group field-invalid' : 'choice-group'}
      aria-describedby={describedBy(name, error, hint)}
    >
      <legend>{legend}</legend>
      <Hint name={name}>{hint}</Hint>
      <FieldError name={name} error={error} />
      <div class="choices">
        {choices.map((choice) => (
          <span class="choice">
            <input
              type="checkbox"
              id={`${prefix}-${choice.value}`}
              name={name}
              value={choice.value}
              checked={checked.includes(choice.value)}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? errorId(name) : undefined}
            />{' '}
            <label for={`${prefix}-${choice.value}`}>{choice.label}</label>
          </span>
        ))}
      </div>
    </fieldset>
  )
}

export interface RadioGroupProps {
  name: string
  legend: string
  choices: (Choice & { hint?: string })[]
  value: string
  error?: string
}

export function RadioGroup({ name, legend, choices, value, error }: RadioGroupProps) {
  return (
    <fieldset
      class={error ? 'choice-group field-invalid' : 'choice-group'}
      aria-describedby={describedBy(name, error)}
    >
      <legend>{legend}</legend>
      <FieldError name={name} error={error} />
      <div class="choices choices-stacked">
        {choices.map((choice) => {
          const id = `${name}-${choice.value}`
          return (
            <span class="choice">
              <input
                type="radio"
                id={id}
                name={name}
                value={choice.value}
                checked={choice.value === value}
                aria-invalid={error ? 'true' : undefined}
                aria-describedby={describedBy(
                  name,
                  error,
                  undefined,
                  choice.hint ? [`${id}-hint`] : [],
                )}
              />{' '}
              <label for={id}>{choice.label}</label>
              {choice.hint && (
                <span id={`${id}-hint`} class="hint choice-hint">
                  {choice.hint}
                </span>
              )}
            </span>
          )
        })}
      </div>
    </fieldset>
  )
}

export interface TextInputProps {
  name: string
  label: string
  value: string
  type?: 'text' | 'tel' | 'url' | 'time'
  error?: string
  hint?: Child
  autocomplete?: string
  inputmode?: 'numeric' | 'tel' | 'url' | 'text'
  maxlength?: number
  placeholder?: string
}

export function TextInput(props: TextInputProps) {
  const { name, label, error, hint } = props
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={fieldId(name)}>{label}</label>
      <Hint name={name}>{hint}</Hint>
      <input
        id={fieldId(name)}
        name={name}
        type={props.type ?? 'text'}
        value={props.value}
        autocomplete={props.autocomplete}
        inputmode={props.inputmode}
        maxlength={props.maxlength}
        placeholder={props.placeholder}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      />
      <FieldError name={name} error={error} />
    </div>
  )
}

export interface SelectProps {
  name: string
  label: string
  error?: string
  hint?: Child
  children: Child
}

export function Select({ name, label, error, hint, children }: SelectProps) {
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={fieldId(name)}>{label}</label>
      <Hint name={name}>{hint}</Hint>
      <select
        id={fieldId(name)}
        name={name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      >
        {children}
      </select>
      <FieldError name={name} error={error} />
    </div>
  )
}

export interface DurationRowProps {
  /** The amount's field; the unit's is `unitName`. */
  name: string
  unitName: string
  label: string
  amount: string
  unit: string
  error?: string
  /** Words after the inputs ("before the start"), part of what the amount is described by. */
  after?: string
}

/** An amount and its unit on one row: "[ 2 ] [hours v] before the start". */
export function DurationRow(props: DurationRowProps) {
  const { name, unitName, label, amount, unit, error, after } = props
  const afterId = after ? `${fieldId(name)}-after` : undefined
  const unitValue = (UNITS as readonly string[]).includes(unit) ? (unit as Unit) : 'minutes'
  return (
    <div class={error ? 'duration-row field-invalid' : 'duration-row'}>
      <label for={fieldId(name)}>{label}</label>
      <span class="duration-inputs">
        <input
          id={fieldId(name)}
          name={name}
          type="text"
          inputmode="numeric"
          pattern="[0-9]*"
          maxlength={7}
          size={5}
          value={amount}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={describedBy(name, error, undefined, afterId ? [afterId] : [])}
        />
        <select
          id={fieldId(unitName)}
          name={unitName}
          aria-label={`Unit of ${label.toLowerCase()}`}
        >
          {UNITS.map((u) => (
            <option value={u} selected={u === unitValue}>
              {u}
            </option>
          ))}
        </select>
        {after && (
          <span id={afterId} class="duration-after">
            {after}
          </span>
        )}
      </span>
      <FieldError name={name} error={error} />
    </div>
  )
}

/** What a section's form shows for one field: its error when this form came back. */
export function errorIn(errors: Errors | undefined, field: string): string | undefined {
  return errors?.fields[field]
}
