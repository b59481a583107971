// /app/account/closed: where the browser lands, signed out, after deactivating or deleting the
// account; it says what happened and how to undo it.
import { AppFrame } from './app-frame.tsx'
import { Notice } from './form-controls.tsx'
import { RECOVERY_DAYS } from './account-page.tsx'
import type { WebSession } from './web-session.ts'

export const CLOSED_REASONS = ['deactivated', 'deleted'] as const
export type ClosedReason = (typeof CLOSED_REASONS)[number]

export function AccountClosedPage(props: {
  reason: ClosedReason
  csrf: string
  session?: WebSession
}) {
  if (props.reason === 'deactivated') {
    return (
      <AppFrame title="Your account is deactivated" session={props.session} csrf={props.csrf}>
        <Notice>You are signed out of this browser.</Notice>
        <p>
          No alerts are sent to you until you reactivate the account. Your settings, followed
          contests and history are kept.
        </p>
        <p>
          <a href="/app/signin?next=%2Fapp%2Faccount">Sign in to reactivate it</a>
        </p>
      </AppFrame>
    )
  }
  return (
    <AppFrame title="Your account is deleted" session={props.session} csrf={props.csrf}>
      <Notice>You are signed out everywhere.</Notice>
      <p>
        Changed your mind? For {RECOVERY_DAYS} days you can restore the account with its email and
        password. After that it is removed for good.
      </p>
      <p>
        <a href="/app/account/recover">Recover your account</a>
      </p>
    </AppFrame>
  )
}
