// The pages of the password-changed notice's removal links: what a link will remove, with the
// button that does it (a GET changes nothing), what was removed, and a link that cannot be used.
import type { DestinationKind, LinkedDestination, RemovalKind } from '../../account/destinations.ts'
import { UNLINK_LINK_TTL_MS } from '../../account/unlink-link.ts'
import { WEBHOOK_CHANNELS, type WebhookChannel } from '../../channels/registry.ts'
import { DAY_MS } from '../../lib/time.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import type { MessagePageProps } from './message-page.tsx'
import type { WebSession } from './web-session.ts'

/** A kind in words, for a page that has no label to show (it is no longer linked). */
const KIND_WORDS: Record<DestinationKind, string> = {
  feed: 'The private calendar feed',
  telegram: 'A Telegram chat',
  ...(Object.fromEntries(WEBHOOK_CHANNELS.map((m) => [m.id, `A ${m.label} channel`])) as Record<
    WebhookChannel,
    string
  >),
  push: 'Web Push in a browser',
  phone: 'A phone number for WhatsApp',
}

export interface UnlinkPageProps {
  kind: RemovalKind
  /** What the link would remove now (for 'all': everything linked). */
  linked: LinkedDestination[]
  /** Where the button posts: the link itself, token included. */
  action: string
  session?: WebSession
  csrf: string
}

function Targets({ linked }: { linked: LinkedDestination[] }) {
  return (
    <ul id="unlink-targets">
      {linked.map((destination) => (
        <li>{destination.label}</li>
      ))}
    </ul>
  )
}

export function UnlinkPage(props: UnlinkPageProps) {
  const { kind, linked } = props
  if (kind === 'all') {
    return (
      <AppFrame
        title="Remove everything and sign out everywhere?"
        session={props.session}
        csrf={props.csrf}
      >
        {linked.length > 0 ? (
          <>
            <p>Your alerts will stop going to:</p>
            <Targets linked={linked} />
          </>
        ) : (
          <p>Nothing is linked to your account besides its email address.</p>
        )}
        <p>
          Every session ends too, in every browser and app, this one included. Your email address,
          settings and history stay. If you did not change your password yourself,{' '}
          <a href="/app/forgot">reset it</a> as well.
        </p>
        <form id="unlink-form" method="post" action={props.action}>
          <CsrfField />
          <button type="submit" class="button-danger">
            Remove everything and sign out everywhere
          </button>
        </form>
      </AppFrame>
    )
  }
  if (linked.length === 0) {
    return (
      <AppFrame title="Nothing to remove" session={props.session} csrf={props.csrf}>
        <p id="message">{KIND_WORDS[kind]} is no longer linked to your account.</p>
      </AppFrame>
    )
  }
  return (
    <AppFrame title="Remove this from your account?" session={props.session} csrf={props.csrf}>
      <p>Your alerts will stop going to:</p>
      <Targets linked={linked} />
      <form id="unlink-form" method="post" action={props.action}>
        <CsrfField />
        <button type="submit" class="button-danger">
          Remove it
        </button>
      </form>
    </AppFrame>
  )
}

const SIGN_IN = { href: '/app/signin', label: 'Sign in' }
const RESET = { href: '/app/forgot', label: 'Reset your password' }

/** The page after the button: what went, and where to go on. */
export function removedMessage(kind: RemovalKind, removed: LinkedDestination[]): MessagePageProps {
  const what = removed.map((destination) => destination.label).join('; ')
  if (kind === 'all') {
    return {
      title: 'Everything is removed',
      message:
        (removed.length > 0 ? `Removed: ${what}. ` : 'Nothing was linked. ') +
        'Every session is signed out, this one included.',
      links: [SIGN_IN, RESET],
    }
  }
  return {
    title: removed.length > 0 ? 'Removed' : 'Nothing to remove',
    message:
      removed.length > 0
        ? `Removed: ${what}. Your alerts no longer go there.`
        : `${KIND_WORDS[kind]} is no longer linked to your account.`,
    links: [{ href: '/app/settings', label: 'Your settings' }, RESET],
  }
}

/** A link whose signature does not hold, or that is cut short or changed. */
export const INVALID_LINK: MessagePageProps = {
  title: 'This link is not valid',
  message: 'The link is incomplete or was changed. Open it from the email again.',
  links: [SIGN_IN, RESET],
}

export const EXPIRED_LINK: MessagePageProps = {
  title: 'This link has expired',
  message:
    `Removal links work for ${UNLINK_LINK_TTL_MS / DAY_MS} days. Sign in and remove what you ` +
    'need from your account page, or reset your password to get an email with new links.',
  links: [SIGN_IN, RESET],
}

export const ACCOUNT_GONE: MessagePageProps = {
  title: 'This link no longer works',
  message: 'The account this email was sent to has been deleted.',
  links: [{ href: '/app/account/recover', label: 'Recover a deleted account' }],
}
