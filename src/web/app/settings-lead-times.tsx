// The "Reminder times" section: up to five rows of an amount and a unit ("2 hours before the
// start"), stored as the API stores them, preferences.leadTimes in whole minutes.
import { z } from '@hono/zod-openapi'
import { MAX_LEAD_MINUTES, MAX_LEAD_TIMES, MIN_LEAD_MINUTES } from '../../users/preferences.ts'
import { DurationRow, errorIn, FieldError, Section, SettingsForm } from './settings-controls.tsx'
import { durationWords, splitMinutes, toMinutes, UNITS, type Unit } from './settings-duration.ts'
import {
  textOf,
  wholeNumber,
  type SettingsForm as FormSpec,
  type Submitted,
} from './settings-form.ts'
import { editOf, type SectionInput, type SettingsView } from './settings-view.ts'

/** One row per lead time the API allows, so every allowed choice fits the form. */
const ROWS = Array.from({ length: MAX_LEAD_TIMES }, (_, i) => i + 1)
const amountName = (row: number) => `leadAmount${row}`
const unitName = (row: number) => `leadUnit${row}`
const rowLabel = (row: number) => `Reminder ${row}`

const BOUNDS = `between ${durationWords(MIN_LEAD_MINUTES)} and ${durationWords(MAX_LEAD_MINUTES)}`

type LeadFields = Record<string, number | Unit | undefined>

const fields = z
  .strictObject(
    Object.fromEntries(
      ROWS.flatMap((row) => [
        [amountName(row), wholeNumber(rowLabel(row)).optional()],
        [
          unitName(row),
          z
            .enum(UNITS, { error: `The unit of ${rowLabel(row)} must be minutes, hours or days` })
            .optional(),
        ],
      ]),
    ),
  )
  // Each row within the API's bounds, said per row (the API would name only a list position).
  .superRefine((f, ctx) => {
    for (const row of ROWS) {
      const amount = f[amountName(row)]
      if (typeof amount !== 'number') continue
      const minutes = toMinutes(amount, (f[unitName(row)] as Unit | undefined) ?? 'minutes')
      if (minutes < MIN_LEAD_MINUTES || minutes > MAX_LEAD_MINUTES) {
        ctx.addIssue({
          code: 'custom',
          path: [amountName(row)],
          message: `${rowLabel(row)} must be ${BOUNDS} before the start`,
        })
      }
    }
  }) as unknown as z.ZodType<LeadFields>

/** The rows typed, in minutes; empty rows are left out. */
function leadTimesOf(f: LeadFields): number[] {
  return ROWS.flatMap((row) => {
    const amount = f[amountName(row)]
    if (typeof amount !== 'number') return []
    return [toMinutes(amount, (f[unitName(row)] as Unit | undefined) ?? 'minutes')]
  })
}

export const leadTimesForm: FormSpec<LeadFields> = {
  id: 'lead-times',
  fields,
  toUpdate: (f) => ({ preferences: { leadTimes: leadTimesOf(f) } }),
  labels: {
    leadTimes: 'Reminder times',
    ...Object.fromEntries(ROWS.flatMap((r) => [[amountName(r), rowLabel(r)]])),
  },
  places: { 'preferences.leadTimes': 'leadTimes' },
  words: {
    [`leadTimes must hold 1 to ${MAX_LEAD_TIMES} values`]:
      'Choose at least one reminder time: fill in a row.',
    'leadTimes must not repeat a value': 'Two reminders are at the same time; make each different.',
  },
}

function storedValues(view: SettingsView): Submitted {
  const values: Submitted = {}
  const stored = view.profile.preferences.leadTimes
  for (const row of ROWS) {
    const minutes = stored[row - 1]
    const { amount, unit } =
      minutes === undefined ? { amount: '', unit: 'hours' } : splitMinutes(minutes)
    values[amountName(row)] = amount
    values[unitName(row)] = unit
  }
  return values
}

export function LeadTimesSection({ view, edit, notice }: SectionInput) {
  const mine = editOf(edit, leadTimesForm.id)
  const values = mine?.values ?? storedValues(view)
  const errors = mine?.errors
  const groupError = errorIn(errors, 'leadTimes')
  const stored = view.profile.preferences.leadTimes
  return (
    <Section id="lead-times" title="Reminder times" notice={notice}>
      <p id="lead-times-now" class="lead">
        Now: {stored.map((m) => durationWords(m)).join(', ')} before each contest starts.
      </p>
      <SettingsForm action="lead-times" errors={errors} submit="Save reminder times">
        <fieldset
          class={groupError ? 'choice-group field-invalid' : 'choice-group'}
          aria-describedby={
            [groupError && 'field-leadTimes-error', 'field-leadTimes-hint']
              .filter(Boolean)
              .join(' ') || undefined
          }
        >
          <legend>Remind me</legend>
          <p id="field-leadTimes-hint" class="hint">
            Up to {MAX_LEAD_TIMES} reminders, each {BOUNDS} before the start. Leave a row empty to
            drop it.
          </p>
          <FieldError name="leadTimes" error={groupError} />
          {ROWS.map((row) => (
            <DurationRow
              name={amountName(row)}
              unitName={unitName(row)}
              label={rowLabel(row)}
              amount={textOf(values, amountName(row))}
              unit={textOf(values, unitName(row))}
              error={errorIn(errors, amountName(row))}
              after="before the start"
            />
          ))}
        </fieldset>
      </SettingsForm>
    </Section>
  )
}
