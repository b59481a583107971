// The "Push notifications" section: the page script's push buttons (the markup is its contract,
// src/web/assets/app-script.ts): a toggle that subscribes or unsubscribes this browser and a test
// push, both reporting in one status line. Push needs JavaScript; without it the page says so.
import { Section } from './settings-controls.tsx'
import { PUSH_PATHS } from './settings-push-paths.ts'
import type { SectionInput } from './settings-view.ts'

export function PushSection({ view, notice }: SectionInput) {
  const { available, pushBrowsers } = view
  return (
    <Section id="push" title="Push notifications" notice={notice}>
      <p id="push-state" class="lead">
        {pushBrowsers === 0
          ? 'No browser gets push notifications yet.'
          : `${pushBrowsers} browser${pushBrowsers === 1 ? '' : 's'} get${pushBrowsers === 1 ? 's' : ''} push notifications.`}{' '}
        Turn push on in each browser that should get them, and keep the channel on above.
      </p>
      <div class="push-buttons">
        <button
          type="button"
          id="push-toggle"
          class="button-secondary"
          data-push-toggle
          aria-pressed="false"
          aria-controls="push-status"
          data-subscribe-url={PUSH_PATHS.subscribe}
          data-unsubscribe-url={PUSH_PATHS.unsubscribe}
        >
          Push notifications in this browser
        </button>
        <button
          type="button"
          id="push-test"
          class="button-secondary"
          data-push-test
          aria-controls="push-status"
          data-test-url={PUSH_PATHS.test}
        >
          Send a test push
        </button>
      </div>
      <p id="push-status" role="status" aria-live="polite">
        {available.push ? '' : 'Push notifications are not available on this server.'}
      </p>
      <noscript>
        <p class="hint">Turning push on in a browser needs JavaScript.</p>
      </noscript>
    </Section>
  )
}
