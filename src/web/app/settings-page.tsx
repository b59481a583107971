// /app/settings: every preference of the signed-in user, one section and one form per concern,
// each posted on its own (so one section's mistake never loses another's choices), with a list
// of the sections at the top.
import { AppFrame } from './app-frame.tsx'
import { AlertsSection } from './settings-alerts.tsx'
import { CalendarSection } from './settings-calendar.tsx'
import { ChannelsSection } from './settings-channels.tsx'
import { ContestsSection } from './settings-contests.tsx'
import { FiltersSection } from './settings-filters.tsx'
import { LeadTimesSection } from './settings-lead-times.tsx'
import { PhoneSection } from './settings-phone.tsx'
import { PushSection } from './settings-push.tsx'
import { QuietHoursSection } from './settings-quiet-hours.tsx'
import { TelegramSection } from '../../channels/telegram/web/settings-section.tsx'
import type { SectionInput } from './settings-view.ts'
import { WEBHOOK_SETTINGS } from './settings-webhook.tsx'
import type { WebSession } from './web-session.ts'

/** The sections in page order: their ids are the anchors the contents and redirects use. */
const SECTIONS = [
  { id: 'platforms', title: 'Platforms and contest types', Body: ContestsSection },
  { id: 'alerts', title: 'Alerts', Body: AlertsSection },
  { id: 'lead-times', title: 'Reminder times', Body: LeadTimesSection },
  { id: 'quiet-hours', title: 'Quiet hours', Body: QuietHoursSection },
  { id: 'noise-filters', title: 'Filters', Body: FiltersSection },
  { id: 'channels', title: 'Channels', Body: ChannelsSection },
  { id: 'phone', title: 'Phone and WhatsApp', Body: PhoneSection },
  { id: 'telegram', title: 'Telegram', Body: TelegramSection },
  ...WEBHOOK_SETTINGS.map((w) => ({ id: w.channel, title: w.title, Body: w.Section })),
  { id: 'push', title: 'Push notifications', Body: PushSection },
  { id: 'calendar', title: 'Calendar feed', Body: CalendarSection },
] as const

export type SectionId = (typeof SECTIONS)[number]['id']

export interface SettingsPageProps extends Omit<SectionInput, 'notice'> {
  session: WebSession
  csrf: string
  /** The last step's words, shown in the section it was about. */
  notice?: { section: string; text: string }
}

export function SettingsPage(props: SettingsPageProps) {
  const { session, csrf, notice, ...input } = props
  return (
    <AppFrame title="Settings" session={session} csrf={csrf} current="settings">
      <p class="lead">
        Signed in as {session.user.email}. Each section is saved on its own with its button.
      </p>
      <nav class="settings-contents" aria-label="Settings sections">
        <ul>
          {SECTIONS.map((s) => (
            <li>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {SECTIONS.map(({ id, Body }) => (
        <Body {...input} notice={notice?.section === id ? notice.text : undefined} />
      ))}
    </AppFrame>
  )
}
