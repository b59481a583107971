// The "Discord" section: the channel webhook alerts are posted to, set or removed. The URL's token
// lets anyone post to the channel, so the page shows it cut after the id, as the profile does.
import { z } from '@hono/zod-openapi'
import { MAX_DISCORD_WEBHOOK_URL } from '../../channels/discord/webhook-url.ts'
import { FormErrors } from './form-controls.tsx'
import { errorIn, Section, SettingsForm, TextInput } from './settings-controls.tsx'
import { oneText, textOf, type SettingsForm as FormSpec } from './settings-form.ts'
import { editOf, type SectionInput } from './settings-view.ts'

const fields = z.strictObject({
  webhookUrl: oneText('Webhook URL')
    .trim()
    .min(1, { error: 'Enter the webhook URL, or remove the webhook with the button below' }),
})

export const discordForm: FormSpec<z.infer<typeof fields>> = {
  id: 'discord',
  fields,
  toUpdate: (f) => ({ preferences: { discordWebhookUrl: f.webhookUrl } }),
  labels: { webhookUrl: 'Webhook URL' },
  places: { 'preferences.discordWebhookUrl': 'webhookUrl' },
}

export const DISCORD_REMOVE_FORM = 'discord-remove'

export function DiscordSection({ view, edit, notice }: SectionInput) {
  const { discord } = view.profile
  const mine = editOf(edit, discordForm.id)
  return (
    <Section id="discord" title="Discord" notice={notice}>
      <p id="discord-state" class="lead">
        {discord.webhookSet ? (
          <>
            Alerts are posted to <span class="url">{discord.maskedWebhookUrl}</span>
          </>
        ) : (
          'No webhook set.'
        )}
        {!view.available.discord && ' Discord is not available on this server.'}
      </p>
      <FormErrors errors={editOf(edit, DISCORD_REMOVE_FORM)?.errors.form ?? []} />
      <SettingsForm
        action="discord"
        errors={mine?.errors}
        submit={discord.webhookSet ? 'Replace webhook' : 'Save webhook'}
      >
        <TextInput
          name="webhookUrl"
          label="Webhook URL"
          type="url"
          inputmode="url"
          autocomplete="off"
          maxlength={MAX_DISCORD_WEBHOOK_URL}
          placeholder="https://discord.com/api/webhooks/…"
          hint="In Discord: channel settings, Integrations, Webhooks, Copy Webhook URL. Setting it turns Discord alerts on."
          value={mine ? textOf(mine.values, 'webhookUrl') : ''}
          error={errorIn(mine?.errors, 'webhookUrl')}
        />
      </SettingsForm>
      {discord.webhookSet && (
        <SettingsForm action="discord/remove" submit="Remove webhook" secondary>
          <p class="hint">Discord alerts stop and the URL is forgotten.</p>
        </SettingsForm>
      )}
    </Section>
  )
}
