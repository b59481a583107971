// The section of each webhook channel (Discord, Slack): the channel webhook alerts are posted to,
// set or removed, in the words and with the hint its module declares. The URL's token lets anyone
// post to the channel, so the page shows it cut short, as the profile does.
import { z } from '@hono/zod-openapi'
import type { FC } from 'hono/jsx'
import { WEBHOOK_CHANNELS, type WebhookChannel } from '../../channels/registry.ts'
import type { Env } from '../../env.ts'
import type { ProfileUpdate } from '../../users/schemas.ts'
import type { FormErrors as Errors } from './form-body.ts'
import { FormErrors } from './form-controls.tsx'
import { errorIn, Section, SettingsForm, TextInput } from './settings-controls.tsx'
import { oneText, refusedField, textOf, type SettingsForm as FormSpec } from './settings-form.ts'
import { editOf, type SectionInput } from './settings-view.ts'

type Module = (typeof WEBHOOK_CHANNELS)[number]
type Field = Module['destination']['field']

// Named as the API's field, so each section's input and its error have ids of their own.
const fieldsOf = (field: Field) =>
  z.strictObject({
    [field]: oneText('Webhook URL')
      .trim()
      .min(1, { error: 'Enter the webhook URL, or remove the webhook with the button below' }),
  }) as z.ZodType<Partial<Record<Field, string>>>

export interface WebhookSettings {
  channel: WebhookChannel
  title: string
  form: FormSpec<Partial<Record<Field, string>>>
  /** The id of the remove button's form, for its errors. */
  removeForm: string
  /** What the remove button saves: the API's null, which forgets the URL and turns it off. */
  removal: ProfileUpdate
  /** The refusal the schema cannot know: the URL's host and path, which depend on the settings. */
  recheck: (env: Env, update: ProfileUpdate) => Errors | undefined
  Section: FC<SectionInput>
}

function webhookSettings(m: Module): WebhookSettings {
  const { field, webhook } = m.destination
  const form: WebhookSettings['form'] = {
    id: m.id,
    fields: fieldsOf(field),
    toUpdate: (f) => ({ preferences: { [field]: f[field] } }),
    labels: { [field]: 'Webhook URL' },
    places: { [`preferences.${field}`]: field },
  }
  const removeForm = `${m.id}-remove`
  return {
    channel: m.id,
    title: m.label,
    form,
    removeForm,
    removal: { preferences: { [field]: null } },
    recheck: (env, update) => {
      const url = update.preferences?.[field]
      const problem = url ? webhook.problem(env, url) : undefined
      return problem ? refusedField(form, field, problem) : undefined
    },
    Section: ({ view, edit, notice }: SectionInput) => {
      const state = view.profile[m.id]
      const mine = editOf(edit, form.id)
      return (
        <Section id={m.id} title={m.label} notice={notice}>
          <p id={`${m.id}-state`} class="lead">
            {state.webhookSet ? (
              <>
                Alerts are posted to <span class="url">{state.maskedWebhookUrl}</span>
              </>
            ) : (
              'No webhook set.'
            )}
            {!view.available[m.id] && ` ${m.label} is not available on this server.`}
          </p>
          <FormErrors errors={editOf(edit, removeForm)?.errors.form ?? []} />
          <SettingsForm
            action={m.id}
            errors={mine?.errors}
            submit={state.webhookSet ? 'Replace webhook' : 'Save webhook'}
          >
            <TextInput
              name={field}
              label="Webhook URL"
              type="url"
              inputmode="url"
              autocomplete="off"
              maxlength={webhook.maxLength}
              placeholder={webhook.mask(webhook.example)}
              hint={`${webhook.setupHint} Setting it turns ${m.label} alerts on.`}
              value={mine ? textOf(mine.values, field) : ''}
              error={errorIn(mine?.errors, field)}
            />
          </SettingsForm>
          {state.webhookSet && (
            <SettingsForm action={`${m.id}/remove`} submit="Remove webhook" secondary>
              <p class="hint">{m.label} alerts stop and the URL is forgotten.</p>
            </SettingsForm>
          )}
        </Section>
      )
    },
  }
}

/** One section, form and remove button per webhook channel, in the registry's order. */
export const WEBHOOK_SETTINGS = WEBHOOK_CHANNELS.map(webhookSettings)
