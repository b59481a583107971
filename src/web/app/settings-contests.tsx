// The "Platforms and contest types" section: which contests the alerts are about, saved as
// preferences.platforms and preferences.contestTypes. (Its id is not `contests`: the home page's
// list has that id, and its style.)
import { z } from '@hono/zod-openapi'
import { platformName } from '../../contests/describe.ts'
import { PLATFORMS } from '../../users/preferences.ts'
import { CheckboxGroup, errorIn, Section, SettingsForm, TextInput } from './settings-controls.tsx'
import { splitTypes, TYPE_GROUPS } from './settings-contest-types.ts'
import {
  checkboxes,
  listOf,
  textOf,
  wordList,
  type SettingsForm as FormSpec,
  type Submitted,
} from './settings-form.ts'
import { editOf, type SectionInput, type SettingsView } from './settings-view.ts'

const fields = z.strictObject({
  platforms: checkboxes('Platforms'),
  contestTypes: checkboxes('Contest types'),
  otherTypes: wordList('Other types').optional(),
})

export const contestsForm: FormSpec<z.infer<typeof fields>> = {
  id: 'platforms',
  fields,
  // None ticked is a choice too: no platform (only followed contests), or every type.
  toUpdate: (f) => ({
    preferences: {
      platforms: f.platforms,
      contestTypes: [...f.contestTypes, ...(f.otherTypes ?? [])],
    },
  }),
  labels: { platforms: 'Platforms', contestTypes: 'Contest types', otherTypes: 'Other types' },
  places: { 'preferences.platforms': 'platforms', 'preferences.contestTypes': 'otherTypes' },
  words: {
    'each value in contestTypes must be at most 50 characters long':
      'Each contest type must be at most 50 characters long',
  },
}

function storedValues(view: SettingsView): Submitted {
  const prefs = view.profile.preferences
  const { checked, other } = splitTypes(prefs.contestTypes)
  return { platforms: prefs.platforms, contestTypes: checked, otherTypes: other.join(', ') }
}

export function ContestsSection({ view, edit, notice }: SectionInput) {
  const mine = editOf(edit, contestsForm.id)
  const values = mine?.values ?? storedValues(view)
  const errors = mine?.errors
  const types = listOf(values, 'contestTypes')
  return (
    <Section id="platforms" title="Platforms and contest types" notice={notice}>
      <SettingsForm action="platforms" errors={errors} submit="Save platforms and types">
        <CheckboxGroup
          name="platforms"
          legend="Platforms"
          hint="None ticked: alerts only for the contests you follow."
          choices={PLATFORMS.map((p) => ({ value: p, label: platformName(p) }))}
          checked={listOf(values, 'platforms')}
          error={errorIn(errors, 'platforms')}
          idPrefix="platform"
        />
        <fieldset class="choice-group">
          <legend>Contest types</legend>
          <p class="hint">None ticked: every type of contest on your platforms.</p>
          {TYPE_GROUPS.map((group, i) => (
            <CheckboxGroup
              name="contestTypes"
              legend={group.legend}
              choices={group.types}
              checked={types}
              idPrefix={`type-${i}`}
            />
          ))}
          <TextInput
            name="otherTypes"
            label="Other types"
            hint="Separated by commas, e.g. kotlin heroes, april fools."
            value={textOf(values, 'otherTypes')}
            maxlength={2000}
            error={errorIn(errors, 'otherTypes') ?? errorIn(errors, 'contestTypes')}
          />
        </fieldset>
      </SettingsForm>
    </Section>
  )
}
