// The "Telegram" section: whether a chat is linked (never which), a one-time link to the bot
// (shown once, right after it is made; valid 15 minutes) and unlinking.
import { formatTime } from '../../../lib/time-words.ts'
import { FormErrors } from '../../../web/app/form-controls.tsx'
import { Section, SettingsForm } from '../../../web/app/settings-controls.tsx'
import { editOf, type SectionInput } from '../../../web/app/settings-view.ts'

export const TELEGRAM_FORMS = { link: 'telegram-link', unlink: 'telegram-unlink' } as const

export function TelegramSection({ view, edit, notice, secrets }: SectionInput) {
  const { available, profile } = view
  const link = secrets?.telegram
  // Its forms are buttons, some shown only in one state: what went wrong is said above them all.
  const refused = editOf(edit, TELEGRAM_FORMS.link, TELEGRAM_FORMS.unlink)?.errors.form ?? []
  if (!available.telegram && !profile.telegram.linked) {
    return (
      <Section id="telegram" title="Telegram" notice={notice}>
        <p id="telegram-state" class="lead">
          Telegram is not available on this server.
        </p>
        <FormErrors errors={refused} />
      </Section>
    )
  }
  return (
    <Section id="telegram" title="Telegram" notice={notice}>
      <p id="telegram-state" class="lead">
        {profile.telegram.linked
          ? 'Your Telegram is linked: alerts can go to your chat with the bot.'
          : 'Not linked. Link your Telegram to get alerts from our bot.'}
      </p>
      <FormErrors errors={refused} />
      {link && (
        <div id="telegram-link" class="callout secret">
          <p>
            <a href={link.url} class="button" rel="noopener noreferrer">
              Open the bot in Telegram
            </a>
          </p>
          <p class="hint">
            Press Start in the chat that opens, then reload this page. The link works once, until{' '}
            <time datetime={link.expiresAt}>{formatTime(Date.parse(link.expiresAt))}</time>; do not
            share it.
          </p>
        </div>
      )}
      {available.telegram && (
        <SettingsForm
          action="telegram/link"
          submit={profile.telegram.linked ? 'Link another chat' : 'Link Telegram'}
          secondary={profile.telegram.linked}
        />
      )}
      {profile.telegram.linked && (
        <SettingsForm action="telegram/unlink" submit="Unlink Telegram" secondary>
          <p class="hint">Telegram alerts stop; you can link again at any time.</p>
        </SettingsForm>
      )}
    </Section>
  )
}
