// The "Calendar feed" section: the private feed's secret address (your platforms, types, filters
// and follows, with an alarm per reminder time). Only its hash is stored, so the address is shown
// once, right after it is made; making a new one stops the old one.
import { toIso } from '../../lib/time.ts'
import { formatTime } from '../../lib/time-words.ts'
import { FormErrors } from './form-controls.tsx'
import { Section, SettingsForm } from './settings-controls.tsx'
import { editOf, type SectionInput } from './settings-view.ts'

export const CALENDAR_FORMS = { make: 'calendar', revoke: 'calendar-revoke' } as const

export function CalendarSection({ view, edit, notice, secrets }: SectionInput) {
  const made = view.feedCreatedAt
  const address = secrets?.feed
  return (
    <Section id="calendar" title="Calendar feed" notice={notice}>
      <p id="calendar-state" class="lead">
        {made === undefined ? (
          'No feed address yet. Make one to see your contests in your calendar app.'
        ) : (
          <>
            Your feed address was made on <time datetime={toIso(made)}>{formatTime(made)}</time>. It
            is shown only when made: make a new one to see it again (the old one then stops).
          </>
        )}
      </p>
      <FormErrors
        errors={editOf(edit, CALENDAR_FORMS.make, CALENDAR_FORMS.revoke)?.errors.form ?? []}
      />
      {address && (
        <div id="calendar-address" class="callout secret">
          <label for="calendar-url">Your feed address (keep it private)</label>
          <input id="calendar-url" type="text" readonly value={address.url} />
          <p>
            <a href={address.webcalUrl} class="button">
              Subscribe in your calendar app
            </a>
          </p>
        </div>
      )}
      <SettingsForm
        action="calendar"
        submit={made === undefined ? 'Make feed address' : 'Make a new feed address'}
        secondary={made !== undefined}
      />
      {made !== undefined && (
        <SettingsForm action="calendar/revoke" submit="Turn the feed off" secondary>
          <p class="hint">The address stops working at once.</p>
        </SettingsForm>
      )}
    </Section>
  )
}
