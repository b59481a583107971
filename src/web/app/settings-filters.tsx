// The "Filters" section: contests left out of alerts by length (shortest and longest, each an
// amount and a unit, or none) and by words in their name (preferences.filters). Its id is not
// `filters`: the home page's filter form has that id, and its style.
import { z } from '@hono/zod-openapi'
import { DurationRow, errorIn, Section, SettingsForm, TextInput } from './settings-controls.tsx'
import { durationWords, splitMinutes, toMinutes, UNITS } from './settings-duration.ts'
import {
  textOf,
  wholeNumber,
  wordList,
  type SettingsForm as FormSpec,
  type Submitted,
} from './settings-form.ts'
import { editOf, type SectionInput, type SettingsView } from './settings-view.ts'

const unit = (label: string) =>
  z.enum(UNITS, { error: `The unit of ${label} must be minutes, hours or days` }).optional()

const fields = z.strictObject({
  minAmount: wholeNumber('Shortest').optional(),
  minUnit: unit('Shortest'),
  maxAmount: wholeNumber('Longest').optional(),
  maxUnit: unit('Longest'),
  excludeWords: wordList('Leave out names with').optional(),
})

const minutesOf = (amount: number | undefined, u: (typeof UNITS)[number] | undefined) =>
  amount === undefined ? null : toMinutes(amount, u ?? 'minutes')

export const filtersForm: FormSpec<z.infer<typeof fields>> = {
  id: 'noise-filters',
  fields,
  // Every field is sent: an empty length clears that bound, an empty word list clears the words.
  toUpdate: (f) => ({
    preferences: {
      filters: {
        minDuration: minutesOf(f.minAmount, f.minUnit),
        maxDuration: minutesOf(f.maxAmount, f.maxUnit),
        excludeWords: f.excludeWords ?? [],
      },
    },
  }),
  labels: { minAmount: 'Shortest', maxAmount: 'Longest', excludeWords: 'Leave out names with' },
  places: {
    'preferences.filters.minDuration': 'minAmount',
    'preferences.filters.maxDuration': 'maxAmount',
    'preferences.filters.excludeWords': 'excludeWords',
    'preferences.filters': 'minAmount',
  },
  words: {
    'filters.minDuration must be between 1 and 144000 minutes':
      'Shortest must be between 1 minute and 100 days',
    'filters.maxDuration must be between 1 and 144000 minutes':
      'Longest must be between 1 minute and 100 days',
    'filters.minDuration must not exceed filters.maxDuration':
      'Shortest must not be longer than Longest',
    'filters.excludeWords must contain no more than 20 words':
      'Leave out at most 20 words or phrases',
    'each excluded word must be at most 50 characters long':
      'Each word or phrase must be at most 50 characters long',
  },
}

function storedValues(view: SettingsView): Submitted {
  const { minDuration, maxDuration, excludeWords } = view.profile.preferences.filters
  const min = minDuration == null ? { amount: '', unit: 'hours' } : splitMinutes(minDuration)
  const max = maxDuration == null ? { amount: '', unit: 'hours' } : splitMinutes(maxDuration)
  return {
    minAmount: min.amount,
    minUnit: min.unit,
    maxAmount: max.amount,
    maxUnit: max.unit,
    excludeWords: excludeWords.join(', '),
  }
}

function nowWords(view: SettingsView): string {
  const { minDuration, maxDuration, excludeWords } = view.profile.preferences.filters
  const parts = [
    minDuration != null && `shorter than ${durationWords(minDuration)}`,
    maxDuration != null && `longer than ${durationWords(maxDuration)}`,
    excludeWords.length > 0 && `named with ${excludeWords.map((w) => `“${w}”`).join(', ')}`,
  ].filter(Boolean)
  return parts.length === 0
    ? 'Now: no contest is left out.'
    : `Now: contests ${parts.join('; ')} are left out.`
}

export function FiltersSection({ view, edit, notice }: SectionInput) {
  const mine = editOf(edit, filtersForm.id)
  const values = mine?.values ?? storedValues(view)
  const errors = mine?.errors
  return (
    <Section id="noise-filters" title="Filters" notice={notice}>
      <p id="noise-filters-now" class="lead">
        {nowWords(view)} Contests you follow are always kept.
      </p>
      <SettingsForm action="noise-filters" errors={errors} submit="Save filters">
        <fieldset class="choice-group">
          <legend>Contest length</legend>
          <p class="hint">Leave empty for no limit.</p>
          <DurationRow
            name="minAmount"
            unitName="minUnit"
            label="Shortest"
            amount={textOf(values, 'minAmount')}
            unit={textOf(values, 'minUnit')}
            error={errorIn(errors, 'minAmount')}
          />
          <DurationRow
            name="maxAmount"
            unitName="maxUnit"
            label="Longest"
            amount={textOf(values, 'maxAmount')}
            unit={textOf(values, 'maxUnit')}
            error={errorIn(errors, 'maxAmount')}
          />
        </fieldset>
        <TextInput
          name="excludeWords"
          label="Leave out names with"
          hint="Words or phrases separated by commas, e.g. unrated, kotlin. Case does not matter."
          value={textOf(values, 'excludeWords')}
          maxlength={2000}
          error={errorIn(errors, 'excludeWords')}
        />
      </SettingsForm>
    </Section>
  )
}
