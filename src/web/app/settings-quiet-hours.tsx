// The "Quiet hours" section: a local time span in which reminders wait, or none
// (preferences.quietHours: {start, end} in HH:MM, or null).
import { z } from '@hono/zod-openapi'
import { errorIn, FieldError, Section, SettingsForm, TextInput } from './settings-controls.tsx'
import {
  checkbox,
  oneText,
  textOf,
  type SettingsForm as FormSpec,
  type Submitted,
} from './settings-form.ts'
import { editOf, type SectionInput, type SettingsView } from './settings-view.ts'

const fields = z.strictObject({
  quietEnabled: checkbox('Quiet hours'),
  quietStart: oneText('From').optional(),
  quietEnd: oneText('Until').optional(),
})

export const quietHoursForm: FormSpec<z.infer<typeof fields>> = {
  id: 'quiet-hours',
  fields,
  // Off clears them, whatever the time fields still hold (kept in the form for next time).
  toUpdate: (f) => ({
    preferences: {
      quietHours: f.quietEnabled
        ? { start: f.quietStart?.trim() ?? '', end: f.quietEnd?.trim() ?? '' }
        : null,
    },
  }),
  labels: { quietEnabled: 'Quiet hours', quietStart: 'From', quietEnd: 'Until' },
  places: {
    'preferences.quietHours.start': 'quietStart',
    'preferences.quietHours.end': 'quietEnd',
    'preferences.quietHours': 'quietEnabled',
  },
  words: {
    'quietHours.start must be a time as HH:MM': 'Enter when quiet hours start, as HH:MM',
    'quietHours.end must be a time as HH:MM': 'Enter when quiet hours end, as HH:MM',
    'quietHours must not start and end at the same time':
      'Quiet hours must not start and end at the same time',
  },
}

function storedValues(view: SettingsView): Submitted {
  const quiet = view.profile.preferences.quietHours
  return quiet
    ? { quietEnabled: 'on', quietStart: quiet.start, quietEnd: quiet.end }
    : { quietStart: '22:00', quietEnd: '07:00' }
}

export function QuietHoursSection({ view, edit, notice }: SectionInput) {
  const mine = editOf(edit, quietHoursForm.id)
  const values = mine?.values ?? storedValues(view)
  const errors = mine?.errors
  const quiet = view.profile.preferences.quietHours
  const enabledError = errorIn(errors, 'quietEnabled')
  return (
    <Section id="quiet-hours" title="Quiet hours" notice={notice}>
      <p id="quiet-hours-now" class="lead">
        {quiet
          ? `Now: reminders wait from ${quiet.start} until ${quiet.end} (${view.profile.preferences.timezone}).`
          : 'Now: off. Reminders come at any hour.'}
      </p>
      <SettingsForm action="quiet-hours" errors={errors} submit="Save quiet hours">
        <div class={enabledError ? 'field field-invalid' : 'field'}>
          <span class="choice">
            <input
              type="checkbox"
              id="field-quietEnabled"
              name="quietEnabled"
              value="on"
              aria-invalid={enabledError ? 'true' : undefined}
              checked={textOf(values, 'quietEnabled') === 'on'}
              aria-describedby={
                [enabledError && 'field-quietEnabled-error', 'field-quietEnabled-hint']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
            />{' '}
            <label for="field-quietEnabled">Hold reminders during quiet hours</label>
          </span>
          <p id="field-quietEnabled-hint" class="hint">
            In your time zone; may pass midnight. A contest that starts before they end is still
            reminded. Digests keep their 09:00.
          </p>
          <FieldError name="quietEnabled" error={enabledError} />
        </div>
        <div class="time-pair">
          <TextInput
            name="quietStart"
            label="From"
            type="time"
            value={textOf(values, 'quietStart')}
            error={errorIn(errors, 'quietStart')}
          />
          <TextInput
            name="quietEnd"
            label="Until"
            type="time"
            value={textOf(values, 'quietEnd')}
            error={errorIn(errors, 'quietEnd')}
          />
        </div>
      </SettingsForm>
    </Section>
  )
}
