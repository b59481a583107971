// The "Channels" section: each channel of the registry on or off (preferences.notificationChannels,
// all sent together as the API's object replaces them), with what stands in its way: a block the service
// put on it (channelStatus), or a step still to take (a verified number, a linked chat...).
import { z } from '@hono/zod-openapi'
import {
  CHANNELS,
  channelModule,
  perChannel,
  type Channel,
  type WebhookChannel,
} from '../../channels/registry.ts'
import { formatTime } from '../../lib/time-words.ts'
import type { ChannelBlockView } from '../../users/channel-blocks.ts'
import { CsrfField } from './csrf-field.tsx'
import { Section, SettingsForm } from './settings-controls.tsx'
import { checkbox, listOf, type SettingsForm as FormSpec, type Submitted } from './settings-form.ts'
import { editOf, type SectionInput, type SettingsView } from './settings-view.ts'

const NAMES: Record<Channel, string> = perChannel((m) => m.label)

const fields = z.strictObject(perChannel((m) => checkbox(m.label)))

export const channelsForm: FormSpec<Record<Channel, boolean>> = {
  id: 'channels',
  fields: fields as unknown as z.ZodType<Record<Channel, boolean>>,
  toUpdate: (f) => ({ preferences: { notificationChannels: f } }),
  labels: NAMES,
}

// Why the service turned a channel off (channel_blocks.reason), in words.
const blocked = (reason: string, label: string) =>
  ({
    bounced: 'Turned off by the service: emails to your address bounced.',
    complained: 'Turned off by the service: our email was reported as spam from your address.',
    'subscription-expired':
      'Turned off by the service: your browsers’ push subscriptions expired. Turn push on in a browser below.',
    'bot-blocked': `Turned off by the service: the bot was blocked in ${label}. Link it again below.`,
    'webhook-unknown': `Turned off by the service: ${label} no longer knows the webhook. Set a new one below.`,
  })[reason] ?? 'Turned off by the service.'

/** What a channel needs before anything is sent over it, or undefined when it is ready. */
function missing(view: SettingsView, channel: Channel): string | undefined {
  const { profile, available, pushBrowsers } = view
  const { label, destination } = channelModule(channel)
  switch (destination.kind) {
    case 'email':
      return profile.emailVerified ? undefined : 'Needs your email address verified first.'
    case 'push':
      return pushBrowsers > 0 ? undefined : 'Needs a browser with push turned on (below).'
  }
  if (!available[channel]) return `${label} is not available on this server.`
  switch (destination.kind) {
    case 'phone':
      return profile.phoneVerified ? undefined : 'Needs a verified phone number (below).'
    case 'linked':
      return profile.telegram.linked ? undefined : `Needs your ${label} linked (below).`
    case 'webhook':
      return profile[channel as WebhookChannel].webhookSet
        ? undefined
        : `Needs a ${label} webhook (below).`
  }
}

function statusOf(view: SettingsView, channel: Channel): string[] {
  const blocks: Partial<Record<Channel, ChannelBlockView>> = view.profile.channelStatus
  const block = blocks[channel]
  const words = [
    block &&
      `${blocked(block.reason, NAMES[channel])} Since ${formatTime(
        Date.parse(block.since),
      )}. Turning it on again clears this.`,
    missing(view, channel),
    channel === 'push' &&
      view.pushBrowsers > 0 &&
      `${view.pushBrowsers} browser${view.pushBrowsers === 1 ? '' : 's'} subscribed.`,
  ]
  return words.filter((w): w is string => typeof w === 'string')
}

/** POST /app/settings/test/<channel>: the channel's test send (settings-test-routes.tsx). */
export const testSendPath = (channel: Channel) => `/app/settings/test/${channel}`

/**
 * A button per channel that has somewhere to send, each its own form (forms do not nest), so a
 * person checks a destination before relying on it, without JavaScript; the answer is the page
 * with the provider's words in this section's notice.
 */
function TestButtons({ view }: { view: SettingsView }) {
  const ready = CHANNELS.filter((channel) => missing(view, channel) === undefined)
  if (ready.length === 0) return null
  return (
    <div class="channel-tests" aria-labelledby="channel-tests-heading">
      <h3 id="channel-tests-heading">Try a channel</h3>
      <p class="hint">
        Sends a test message to your own address, chat or webhook now and shows what the service
        there answered. Three tests per channel an hour.
      </p>
      <ul class="test-list">
        {ready.map((channel) => (
          <li>
            <form method="post" action={testSendPath(channel)} data-channel={channel}>
              <CsrfField />
              <button type="submit" class="button-secondary">
                Send a test by {NAMES[channel]}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </div>
  )
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
      <TestButtons view={view} />
    </Section>
  )
}
