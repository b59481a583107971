// The "Channels" section: each channel on or off (preferences.notificationChannels, all five sent
// together as the API's object replaces them), with what stands in its way: a block the service
// put on it (channelStatus), or a step still to take (a verified number, a linked chat...).
import { z } from '@hono/zod-openapi'
import { formatTime } from '../../notifications/kinds/wording.ts'
import type { ChannelBlockView } from '../../users/channel-blocks.ts'
import { Section, SettingsForm } from './settings-controls.tsx'
import { checkbox, listOf, type SettingsForm as FormSpec, type Submitted } from './settings-form.ts'
import { editOf, type SectionInput, type SettingsView } from './settings-view.ts'

const CHANNELS = ['email', 'whatsapp', 'push', 'telegram', 'discord'] as const
type Channel = (typeof CHANNELS)[number]

const NAMES: Record<Channel, string> = {
  email: 'Email',
  whatsapp: 'WhatsApp',
  push: 'Push notifications',
  telegram: 'Telegram',
  discord: 'Discord',
}

const fields = z.strictObject(
  Object.fromEntries(CHANNELS.map((ch) => [ch, checkbox(NAMES[ch])])) as Record<
    Channel,
    ReturnType<typeof checkbox>
  >,
)

export const channelsForm: FormSpec<Record<Channel, boolean>> = {
  id: 'channels',
  fields: fields as unknown as z.ZodType<Record<Channel, boolean>>,
  toUpdate: (f) => ({ preferences: { notificationChannels: f } }),
  labels: NAMES,
}

// Why the service turned a channel off (channel_blocks.reason), in words.
const BLOCKED: Record<string, string> = {
  bounced: 'Turned off by the service: emails to your address bounced.',
  complained: 'Turned off by the service: our email was reported as spam from your address.',
  'subscription-expired':
    'Turned off by the service: your browsers’ push subscriptions expired. Turn push on in a browser below.',
  'bot-blocked': 'Turned off by the service: the bot was blocked in Telegram. Link it again below.',
  'webhook-unknown':
    'Turned off by the service: Discord no longer knows the webhook. Set a new one below.',
}

/** What a channel needs before anything is sent over it, or undefined when it is ready. */
function missing(view: SettingsView, channel: Channel): string | undefined {
  const { profile, available, pushBrowsers } = view
  switch (channel) {
    case 'email':
      return profile.emailVerified ? undefined : 'Needs your email address verified first.'
    case 'whatsapp':
      if (!available.whatsapp) return 'WhatsApp is not available on this server.'
      return profile.phoneVerified ? undefined : 'Needs a verified phone number (below).'
    case 'push':
      if (pushBrowsers > 0) return undefined
      return 'Needs a browser with push turned on (below).'
    case 'telegram':
      if (!available.telegram) return 'Telegram is not available on this server.'
      return profile.telegram.linked ? undefined : 'Needs your Telegram linked (below).'
    case 'discord':
      if (!available.discord) return 'Discord is not available on this server.'
      return profile.discord.webhookSet ? undefined : 'Needs a Discord webhook (below).'
  }
}

function statusOf(view: SettingsView, channel: Channel): string[] {
  const blocks: Partial<Record<Channel, ChannelBlockView>> = view.profile.channelStatus
  const block = blocks[channel]
  const words = [
    block &&
      `${BLOCKED[block.reason] ?? 'Turned off by the service.'} Since ${formatTime(
        Date.parse(block.since),
      )}. Turning it on again clears this.`,
    missing(view, channel),
    channel === 'push' &&
      view.pushBrowsers > 0 &&
      `${view.pushBrowsers} browser${view.pushBrowsers === 1 ? '' : 's'} subscribed.`,
  ]
  return words.filter((w): w is string => typeof w === 'string')
}

function storedValues(view: SettingsView): Submitted {
  const on = view.profile.preferences.notificationChannels
  return Object.fromEntries(CHANNELS.filter((ch) => on[ch]).map((ch) => [ch, 'on']))
}

export function ChannelsSection({ view, edit, notice }: SectionInput) {
  const mine = editOf(edit, channelsForm.id)
  const values = mine?.values ?? storedValues(view)
  return (
    <Section id="channels" title="Channels" notice={notice}>
      <SettingsForm action="channels" errors={mine?.errors} submit="Save channels">
        <fieldset class="choice-group">
          <legend>Send alerts by</legend>
          <ul class="channel-list">
            {CHANNELS.map((channel) => {
              const status = statusOf(view, channel)
              const statusId = `channel-${channel}-status`
              const error = mine?.errors.fields[channel]
              return (
                <li class="channel" data-channel={channel}>
                  <span class="choice">
                    <input
                      type="checkbox"
                      id={`field-${channel}`}
                      name={channel}
                      value="on"
                      aria-invalid={error ? 'true' : undefined}
                      checked={listOf(values, channel).includes('on')}
                      aria-describedby={
                        [error && `field-${channel}-error`, status.length > 0 && statusId]
                          .filter(Boolean)
                          .join(' ') || undefined
                      }
                    />{' '}
                    <label for={`field-${channel}`}>{NAMES[channel]}</label>
                  </span>
                  {error && (
                    <p id={`field-${channel}-error`} class="field-error">
                      {error}
                    </p>
                  )}
                  {status.length > 0 && (
                    <p id={statusId} class="hint channel-status">
                      {status.join(' ')}
                    </p>
                  )}
                </li>
              )
            })}
          </ul>
        </fieldset>
      </SettingsForm>
    </Section>
  )
}
