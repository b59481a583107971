// /app/: who is signed in, whether the address still needs its code, and where to go next.
import { AppFrame } from './app-frame.tsx'
import { Notice } from './form-controls.tsx'
import type { WebSession } from './web-session.ts'

export function LandingPage(props: { session: WebSession; csrf: string; notice?: string }) {
  const { user } = props.session
  return (
    <AppFrame title="Your account" session={props.session} csrf={props.csrf}>
      <Notice>{props.notice}</Notice>
      <p id="signed-in-as">
        Signed in as <strong>{user.name}</strong> ({user.email}).
      </p>
      {user.emailVerifiedAt == null && (
        <p id="verify-reminder" class="callout">
          Your email address is not verified yet, so no alerts are sent to it.{' '}
          <a href="/app/verify">Enter your code</a>
        </p>
      )}
      <ul class="next-steps">
        <li>
          <a href="/app/settings">Choose your platforms, channels and reminder times</a>
        </li>
        <li>
          <a href="/">See the contests coming up</a>
        </li>
      </ul>
    </AppFrame>
  )
}
