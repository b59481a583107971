// A settings form read and checked in two steps: the form's own strict schema (only its fields, a
// number where one is typed, one value where one is asked), then the API's ProfileUpdateBody on
// what the form means, so the rules and their words stay the API's. Each message goes next to the
// field it is about; what belongs to no field goes to the form.
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ZodType } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { ProfileUpdateBody, type ProfileUpdate } from '../../users/schemas.ts'
import { CSRF_FIELD, formFields, noErrors, type FormErrors } from './form-body.ts'

/** The texts of a submitted form: a repeated name (checkboxes) gives a list. */
export type Submitted = Record<string, string | string[]>

/** A form of the page that came back: which, what was sent and what was wrong. */
export interface SettingsEdit {
  form: string
  values: Submitted
  errors: FormErrors
}

export interface SettingsForm<F> {
  /** Its route is POST /app/settings/<id>; its errors come back to the form of that id. */
  id: string
  /** The form's fields, strict: a field the page does not have is refused. */
  fields: ZodType<F>
  /** The profile update the form means, checked next by the API's schema. */
  toUpdate(form: F): unknown
  /** Each field's label, as the page shows it; messages say it instead of the API's name. */
  labels: Record<string, string>
  /** API paths ('preferences.leadTimes') to the field their messages go next to. */
  places?: Record<string, string>
  /** The API's message, in the page's words where the API's would read oddly here. */
  words?: Record<string, string>
}

export type Checked =
  { ok: true; update: ProfileUpdate } | { ok: false; values: Submitted; errors: FormErrors }

/** The submitted texts without the CSRF token; undefined when it is no form, or carries a file. */
export async function submittedFields(c: Context<AppEnv>): Promise<Submitted | undefined> {
  const fields = await formFields(c)
  if (!fields) return undefined
  const submitted: Submitted = {}
  for (const [name, value] of Object.entries(fields)) {
    if (name === CSRF_FIELD) continue
    const list = [value].flat()
    if (list.some((v) => typeof v !== 'string')) return undefined
    submitted[name] = Array.isArray(value) ? (list as string[]) : (value as string)
  }
  return submitted
}

export const UNREADABLE = 'The form could not be read; send it from the settings page.'

function place<F>(form: SettingsForm<F>, path: PropertyKey[]): string | undefined {
  const key = path.map(String).join('.')
  // A field of the form itself (the first step's issues, or an API field of the same name).
  if (path.length > 0 && Object.hasOwn(form.labels, String(path[0]))) return String(path[0])
  // The longest API path the issue is under: 'preferences.filters.minDuration' before 'filters'.
  const under = Object.keys(form.places ?? {})
    .filter((p) => key === p || key.startsWith(`${p}.`))
    .sort((a, b) => b.length - a.length)[0]
  return under && form.places![under]
}

/** The API says a field by its path ('filters.minDuration must...'); the page says its label. */
function worded<F>(form: SettingsForm<F>, message: string, field: string | undefined): string {
  const words = form.words?.[message]
  if (words) return words
  if (!field) return message
  const label = form.labels[field]
  const apiName = Object.entries(form.places ?? {})
    .filter(([, f]) => f === field)
    .map(([path]) => path.replace(/^preferences\./, ''))
    .find((name) => message.startsWith(`${name} `))
  return apiName ? `${label}${message.slice(apiName.length)}` : message
}

function collect<F>(form: SettingsForm<F>, issues: z.core.$ZodIssue[]): FormErrors {
  const errors = noErrors()
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      errors.form.push(`This form has no field named ${issue.keys.join(', ')}.`)
      continue
    }
    const field = place(form, issue.path)
    const message = worded(form, issue.message, field)
    if (field) errors.fields[field] ??= message
    else if (!errors.form.includes(message)) errors.form.push(message)
  }
  return errors
}

/** The form's fields checked, then what they mean checked by the API's own schema. */
export function checkForm<F>(form: SettingsForm<F>, submitted: Submitted | undefined): Checked {
  if (!submitted) return { ok: false, values: {}, errors: { fields: {}, form: [UNREADABLE] } }
  const fields = form.fields.safeParse(submitted)
  if (!fields.success) {
    return { ok: false, values: submitted, errors: collect(form, fields.error.issues) }
  }
  const update = ProfileUpdateBody.safeParse(form.toUpdate(fields.data))
  if (!update.success) {
    return { ok: false, values: submitted, errors: collect(form, update.error.issues) }
  }
  return { ok: true, update: update.data }
}

/** A refusal the route found itself (outside the schemas), worded and placed like the rest. */
export function refusedField<F>(form: SettingsForm<F>, field: string, message: string): FormErrors {
  return { fields: { [field]: worded(form, message, field) }, form: [] }
}

/**
 * A form of buttons only (unlink, revoke...): what is wrong with it, or undefined when it carries
 * nothing but its token.
 */
export function buttonFormErrors(submitted: Submitted | undefined): FormErrors | undefined {
  if (!submitted) return formError(UNREADABLE)
  const extra = Object.keys(submitted)
  return extra.length > 0
    ? formError(`This form has no field named ${extra.join(', ')}.`)
    : undefined
}

/** Errors of one field, for a form answered by hand (a refused code, a 503). */
export const fieldErrors = (field: string, message: string): FormErrors => ({
  fields: { [field]: message },
  form: [],
})

export const formError = (message: string): FormErrors => ({ fields: {}, form: [message] })

// The pieces forms are made of. Messages name the label: they are shown next to the field.

/** One text; a repeated name (two values) is refused rather than guessed between. */
export const oneText = (label: string) =>
  z.string({ error: `${label} must be one value` }).max(2000, {
    error: `${label} is too long`,
  })

/** Checkboxes of one name: none, one or several values. */
export const checkboxes = (label: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${label} must be a list of choices` })
    .optional()
    .transform((v) => (v === undefined ? [] : [v].flat()))

/** A single checkbox: on when sent (browsers send "on"), off when left out. */
export const checkbox = (label: string) =>
  z
    .literal('on', { error: `${label} must be on or left out` })
    .optional()
    .transform((v) => v === 'on')

/** A whole number typed, or nothing (empty: no value). */
export const wholeNumber = (label: string) =>
  oneText(label)
    .trim()
    .regex(/^\d{0,7}$/, { error: `${label} must be a whole number` })
    .transform((v) => (v === '' ? undefined : Number(v)))

/** Comma- or line-separated words, trimmed, empty ones left out. */
export const wordList = (label: string) =>
  oneText(label).transform((v) =>
    v
      .split(/[,\n]/)
      .map((w) => w.trim())
      .filter(Boolean),
  )

/** A form's first value of `name` as text, for filling a field again. */
export function textOf(values: Submitted, name: string): string {
  const value = values[name]
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
}

/** Every value of `name`, for ticking checkboxes again. */
export const listOf = (values: Submitted, name: string): string[] =>
  values[name] === undefined ? [] : [values[name]].flat()
