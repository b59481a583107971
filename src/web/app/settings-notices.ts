// What the settings page says after a step, by the `saved` key of the redirect that brought the
// browser back (the section it shows in, and the words).
import { WEBHOOK_CHANNELS } from '../../channels/registry.ts'
import { wordsFor } from './lookup.ts'

const NOTICES: Record<string, { section: string; text: string }> = {
  platforms: { section: 'platforms', text: 'Your platforms and contest types are saved.' },
  alerts: { section: 'alerts', text: 'How often alerts come and your time zone are saved.' },
  'lead-times': { section: 'lead-times', text: 'Your reminder times are saved.' },
  'quiet-hours': { section: 'quiet-hours', text: 'Your quiet hours are saved.' },
  'noise-filters': { section: 'noise-filters', text: 'Your filters are saved.' },
  channels: { section: 'channels', text: 'Your channels are saved.' },
  phone: { section: 'phone', text: 'Your phone number is saved.' },
  'phone-code': {
    section: 'phone',
    text: 'We sent a 6-digit code to your number over WhatsApp. Type it below.',
  },
  'phone-verified': { section: 'phone', text: 'Your phone number is verified.' },
  'telegram-unlinked': { section: 'telegram', text: 'Telegram is unlinked.' },
  ...Object.fromEntries(
    WEBHOOK_CHANNELS.flatMap(({ id, label }) => [
      [id, { section: id, text: `Your ${label} webhook is saved and ${label} alerts are on.` }],
      [`${id}-removed`, { section: id, text: `The ${label} webhook is removed.` }],
    ]),
  ),
  'calendar-revoked': { section: 'calendar', text: 'Your feed address is turned off.' },
}

const TEXTS = Object.fromEntries(Object.entries(NOTICES).map(([key, n]) => [key, n.text]))

/** The notice a `saved` key stands for; nothing for a key the page does not know. */
export function settingsNotice(saved: string | undefined) {
  const text = wordsFor(TEXTS, saved)
  return text === undefined ? undefined : { section: NOTICES[saved!].section, text }
}
