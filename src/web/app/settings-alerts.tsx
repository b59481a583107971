// The "Alerts" section: how often alerts come (each reminder, or a daily or weekly digest) and the
// time zone that digests, quiet hours and times are read in.
import { z } from '@hono/zod-openapi'
import { errorIn, RadioGroup, Section, Select, SettingsForm } from './settings-controls.tsx'
import { oneText, textOf, type SettingsForm as FormSpec } from './settings-form.ts'
import { zoneChoices, zoneWords } from './settings-time-zones.ts'
import { editOf, type SectionInput } from './settings-view.ts'

const fields = z.strictObject({
  alertFrequency: oneText('Alert frequency').optional(),
  timezone: oneText('Time zone').optional(),
})

export const alertsForm: FormSpec<z.infer<typeof fields>> = {
  id: 'alerts',
  fields,
  // Sent as typed (the API's schema names an unknown frequency or zone); a field left out of the
  // form keeps its stored value.
  toUpdate: (f) => ({
    preferences: {
      ...(f.alertFrequency !== undefined && { alertFrequency: f.alertFrequency }),
      ...(f.timezone !== undefined && { timezone: f.timezone }),
    },
  }),
  labels: { alertFrequency: 'Alert frequency', timezone: 'Time zone' },
  places: { 'preferences.alertFrequency': 'alertFrequency', 'preferences.timezone': 'timezone' },
  words: {
    'alertFrequency must be one of the following values: immediate, daily, weekly':
      'Choose how often alerts come: each reminder, daily or weekly',
  },
}

const FREQUENCIES = [
  {
    value: 'immediate',
    label: 'Each reminder',
    hint: 'A message at each of your reminder times before a contest.',
  },
  { value: 'daily', label: 'Daily digest', hint: 'One message a day at 09:00 your time.' },
  { value: 'weekly', label: 'Weekly digest', hint: 'One message a week, on Monday at 09:00.' },
]

export function AlertsSection({ view, edit, notice, now }: SectionInput) {
  const mine = editOf(edit, alertsForm.id)
  const prefs = view.profile.preferences
  const values = mine?.values ?? { alertFrequency: prefs.alertFrequency, timezone: prefs.timezone }
  const errors = mine?.errors
  const zone = textOf(values, 'timezone')
  const { utc, groups } = zoneChoices(prefs.timezone)
  return (
    <Section id="alerts" title="Alerts" notice={notice}>
      <SettingsForm action="alerts" errors={errors} submit="Save alerts">
        <RadioGroup
          name="alertFrequency"
          legend="How often"
          choices={FREQUENCIES}
          value={textOf(values, 'alertFrequency')}
          error={errorIn(errors, 'alertFrequency')}
        />
        <Select
          name="timezone"
          label="Time zone"
          hint={
            <>
              Now: <span id="timezone-name">{zoneWords(prefs.timezone, now)}</span>. Digests, quiet
              hours and the times in messages use it.
            </>
          }
          error={errorIn(errors, 'timezone')}
        >
          {utc && (
            <option value="UTC" selected={zone === 'UTC'}>
              UTC
            </option>
          )}
          {groups.map((group) => (
            <optgroup label={group.region}>
              {group.zones.map((z) => (
                <option value={z.id} selected={z.id === zone}>
                  {z.label}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
      </SettingsForm>
    </Section>
  )
}
