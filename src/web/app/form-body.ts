// The body of a web form: read once per request (the CSRF check, the limits and the handler all
// ask), validated by a strict zod schema into values or messages for each field.
import type { Context } from 'hono'
import type { ZodType } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import type { EmailOf } from '../../http/rate-limit.ts'

export type FormValue = string | File | (string | File)[]
export type FormFields = Record<string, FormValue>

/** The form's own hidden field for the CSRF token; never part of what a schema validates. */
export const CSRF_FIELD = '_csrf'

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

const read = new WeakMap<Request, Promise<FormFields | undefined>>()

/** The submitted fields (a repeated name gives a list), or undefined: not a form, or unreadable. */
export function formFields(c: Context<AppEnv>): Promise<FormFields | undefined> {
  let fields = read.get(c.req.raw)
  if (!fields) {
    const type = c.req.header('Content-Type')?.split(';')[0].trim().toLowerCase() ?? ''
    fields = FORM_TYPES.includes(type)
      ? // A malformed multipart body throws in the parser: a bad request, not a failure of ours.
        c.req.parseBody({ all: true }).catch(() => undefined)
      : Promise.resolve(undefined)
    read.set(c.req.raw, fields)
  }
  return fields
}

/** A form's email, normalised, as the account counter of the rate limits and failure budgets. */
export const formEmail: EmailOf = async (c) => {
  const email = (await formFields(c))?.email
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined
}

/** What was wrong, by field (one message each, shown next to it) and for the form as a whole. */
export interface FormErrors {
  fields: Record<string, string>
  form: string[]
}

export const noErrors = (): FormErrors => ({ fields: {}, form: [] })

export type FormResult<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | { ok: false; errors: FormErrors; values: Record<string, string> }

/** The API's messages begin with the field's name; a page says the label its reader sees. */
function worded(message: string, field: string, label: string | undefined): string {
  if (!label || !message.toLowerCase().startsWith(field.toLowerCase())) return message
  return `${label}${message.slice(field.length)}`
}

/**
 * Validates the form with `schema` (strict: a field the page does not have is refused); `labels`
 * name the fields the page shows. `values` are the submitted texts to fill the form again; the
 * page leaves passwords out of it.
 */
export async function readForm<T>(
  c: Context<AppEnv>,
  schema: ZodType<T>,
  labels: Record<string, string>,
): Promise<FormResult<T>> {
  const fields = await formFields(c)
  if (!fields) {
    const errors = { fields: {}, form: ['The form could not be read; send it from the page.'] }
    return { ok: false, errors, values: {} }
  }
  const { [CSRF_FIELD]: _token, ...submitted } = fields
  const values: Record<string, string> = {}
  for (const [name, value] of Object.entries(submitted)) {
    if (typeof value === 'string') values[name] = value
  }
  const parsed = schema.safeParse(submitted)
  if (parsed.success) return { ok: true, data: parsed.data, values }
  const errors = noErrors()
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      errors.form.push(`This form has no field named ${issue.keys.join(', ')}.`)
      continue
    }
    const field = String(issue.path[0] ?? '')
    // A field the page does not show still needs its message seen: it goes to the whole form.
    if (!(field in labels)) errors.form.push(issue.message)
    else errors.fields[field] ??= worded(issue.message, field, labels[field])
  }
  return { ok: false, errors, values }
}
