// /app/communities: the Discord channels and Telegram groups the account claimed, each with what it
// announces and whether it still can (a chat that removed the bot shows why it stopped), a button
// to release one, and the one-time code to claim another from the chat.
import { describeDestination, SERVICE_NAMES } from '../../communities/describe.ts'
import type { CommunityDestinationRow } from '../../db/schema.ts'
import { formatTime } from '../../lib/time-words.ts'
import { AppFrame } from './app-frame.tsx'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import type { WebSession } from './web-session.ts'

export interface CommunitiesPageProps {
  session: WebSession
  csrf: string
  destinations: CommunityDestinationRow[]
  /** A claim code made by this very request, shown once, with when it expires. */
  code?: { value: string; expiresAt: number }
  /** Where a group adds the bots: t.me's add-to-group link, Discord's install link. */
  telegramAddUrl?: string
  discordInstallUrl?: string
  notice?: string
  errors?: string[]
}

function Item({ d }: { d: CommunityDestinationRow }) {
  const titleId = `community-${d.id}-title`
  const [, ...settings] = describeDestination(d).split('\n')
  return (
    <li class="card community" data-destination-id={d.id} aria-labelledby={titleId}>
      <h3 id={titleId}>
        {SERVICE_NAMES[d.channel]}: {d.title || d.chatId}
      </h3>
      <p class="meta">{d.platforms.join(', ')}</p>
      <ul class="community-settings">
        {settings.map((line) => (
          <li>{line}</li>
        ))}
      </ul>
      <p class="status">
        {d.deadAt === null ? (
          <strong>Active</strong>
        ) : (
          <>
            <strong>Stopped</strong> since {formatTime(d.deadAt)}: {d.deadReason}. Add the bot back
            and subscribe again from the chat.
          </>
        )}
      </p>
      <form method="post" action={`/app/communities/${d.id}/release`}>
        <CsrfField />
        <button type="submit" class="button-secondary" aria-describedby={titleId}>
          Release
        </button>
      </form>
    </li>
  )
}

export function CommunitiesPage(props: CommunitiesPageProps) {
  const { destinations, code } = props
  return (
    <AppFrame title="Communities" session={props.session} csrf={props.csrf} current="communities">
      <Notice>{props.notice}</Notice>
      <FormErrors errors={props.errors ?? []} />
      <p class="lead">
        A Discord channel or a Telegram group can announce contests on its own: an administrator
        subscribes it from the chat (<code>/subscribe codeforces atcoder</code> in Telegram,{' '}
        <code>/contests subscribe</code> in Discord). Claim one to see it here and to hear from us
        if it stops.
      </p>
      {(props.telegramAddUrl || props.discordInstallUrl) && (
        <p class="note">
          Add the bot:{' '}
          {props.telegramAddUrl && <a href={props.telegramAddUrl}>to a Telegram group</a>}
          {props.telegramAddUrl && props.discordInstallUrl && ', '}
          {props.discordInstallUrl && <a href={props.discordInstallUrl}>to a Discord server</a>}.
        </p>
      )}
      <section aria-labelledby="claim-title">
        <h2 id="claim-title">Claim a community</h2>
        {code ? (
          <p id="claim-code" class="secret">
            Your code: <strong>{code.value}</strong>. In the chat, an administrator sends{' '}
            <code>/claim {code.value}</code> (Telegram) or <code>/contests claim</code> with it
            (Discord), before {formatTime(code.expiresAt)}. It works once.
          </p>
        ) : (
          <p>Make a code, then send it in the chat you want to claim.</p>
        )}
        <form method="post" action="/app/communities/claim-code">
          <CsrfField />
          <button type="submit">Make a claim code</button>
        </form>
      </section>
      <section aria-labelledby="claimed-title">
        <h2 id="claimed-title">Your communities</h2>
        {destinations.length === 0 ? (
          <p id="no-communities">No community is claimed by your account.</p>
        ) : (
          <ul class="cards communities">
            {destinations.map((d) => (
              <Item d={d} />
            ))}
          </ul>
        )}
      </section>
    </AppFrame>
  )
}
