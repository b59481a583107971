// /app/communities: the Discord channels and Telegram groups the account claimed, each with what it
// announces and whether it still can (a chat that removed the bot shows why it stopped), a form to
// change what it announces, a button to release it, and the one-time code to claim another.
import { UNVERIFIED_CANNOT_CLAIM } from '../../communities/claims.ts'
import { describeDestination, SERVICE_NAMES } from '../../communities/describe.ts'
import type { CommunityDestinationRow } from '../../db/schema.ts'
import { formatTime } from '../../lib/time-words.ts'
import { PLATFORMS, platformName } from '../../platforms/registry.ts'
import { AppFrame } from './app-frame.tsx'
import { formOf, type CommunityFormValues } from './community-form.ts'
import { CsrfField } from './csrf-field.tsx'
import { FormErrors, Notice } from './form-controls.tsx'
import type { WebSession } from './web-session.ts'

/** A form of one community that came back refused: what was sent and what was wrong. */
export interface CommunityEdit {
  id: string
  values: CommunityFormValues
  error: string
}

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
  edit?: CommunityEdit
}

const TEXT_FIELDS = [
  [
    'leadTimes',
    'Minutes before the start',
    'Up to 5, comma separated: 60, 1440 is a day and an hour',
  ],
  ['contestTypes', 'Contest types', 'Blank for every type; for example div2, abc'],
  ['includeWords', 'Only names with', 'Blank for any name; words, comma separated'],
  ['excludeWords', 'Never names with', 'Words, comma separated'],
  ['minDuration', 'Shortest length, in minutes', 'Blank for any length'],
] as const

/** A Discord channel's events switch and the roles its announcements ping. */
function DiscordFields(props: {
  d: CommunityDestinationRow
  values: CommunityFormValues
  id: (name: string) => string
}) {
  const { d, values, id } = props
  return (
    <>
      <div class="field">
        <span class="choice">
          <input
            type="checkbox"
            id={id('events')}
            name="events"
            value="on"
            checked={values.events === 'on'}
            aria-describedby={id('events-hint')}
          />
          <label for={id('events')}>Add each contest to the server’s events</label>
        </span>
        <p id={id('events-hint')} class="hint">
          {d.eventsRefusedAt !== null
            ? `Stopped on ${formatTime(d.eventsRefusedAt)}: the bot needs the Manage Events permission. Save with the box ticked to try again.`
            : 'The bot needs the Manage Events permission.'}
        </p>
      </div>
      <div class="field">
        <label for={id('roles')}>Roles</label>
        <p id={id('roles-hint')} class="hint">
          Platform or contest type and a role id, comma separated: codeforces: 123456789012345678.
          Announcements ping them, and members take them with a button (the bot needs Manage Roles
          and a role above them).
        </p>
        <input
          id={id('roles')}
          name="roles"
          type="text"
          value={values.roles ?? ''}
          aria-describedby={id('roles-hint')}
        />
      </div>
    </>
  )
}

/** What the community announces, as a form: the stored filters, or what came back refused. */
function EditForm({ d, edit }: { d: CommunityDestinationRow; edit?: CommunityEdit }) {
  const values = edit?.values ?? formOf(d)
  const ticked = [values.platforms ?? []].flat()
  const id = (name: string) => `community-${d.id}-${name}`
  return (
    <details class="community-edit" open={edit !== undefined}>
      <summary>Change what it announces</summary>
      <form method="post" action={`/app/communities/${d.id}`} novalidate>
        {edit && <FormErrors errors={[edit.error]} />}
        <CsrfField />
        <fieldset class="choice-group">
          <legend>Platforms</legend>
          <div class="choices">
            {PLATFORMS.map((p) => (
              <span class="choice">
                <input
                  type="checkbox"
                  id={id(`platform-${p}`)}
                  name="platforms"
                  value={p}
                  checked={ticked.includes(p)}
                />
                <label for={id(`platform-${p}`)}>{platformName(p)}</label>
              </span>
            ))}
          </div>
        </fieldset>
        {TEXT_FIELDS.map(([name, label, hint]) => (
          <div class="field">
            <label for={id(name)}>{label}</label>
            <p id={id(`${name}-hint`)} class="hint">
              {hint}
            </p>
            <input
              id={id(name)}
              name={name}
              type="text"
              value={values[name]}
              inputmode={name === 'minDuration' ? 'numeric' : undefined}
              aria-describedby={id(`${name}-hint`)}
            />
          </div>
        ))}
        <div class="field">
          <span class="choice">
            <input
              type="checkbox"
              id={id('rankUpdates')}
              name="rankUpdates"
              value="on"
              checked={values.rankUpdates === 'on'}
              aria-describedby={id('rankUpdates-hint')}
            />
            <label for={id('rankUpdates')}>Post members’ results after each contest</label>
          </span>
          <p id={id('rankUpdates-hint')} class="hint">
            Rank updates: members add their handle in the chat with{' '}
            {d.channel === 'discord' ? '/contests handle' : '/handle'}.
          </p>
        </div>
        <div class="field">
          <span class="choice">
            <input
              type="checkbox"
              id={id('cleanup')}
              name="cleanup"
              value="on"
              checked={values.cleanup === 'on'}
              aria-describedby={id('cleanup-hint')}
            />
            <label for={id('cleanup')}>Delete each announcement after its contest ends</label>
          </span>
          <p id={id('cleanup-hint')} class="hint">
            {d.channel === 'telegram'
              ? 'In a group the bot needs the Delete messages right; Telegram lets it delete only messages younger than 48 hours.'
              : 'The bot deletes its own messages; it needs no other permission.'}
          </p>
        </div>
        {d.channel === 'discord' && <DiscordFields d={d} values={values} id={id} />}
        <div class="actions">
          <button type="submit">Save</button>
        </div>
      </form>
    </details>
  )
}

/** A destination's heading: its chat, or (under its group) the topic or the whole group. */
function heading(d: CommunityDestinationRow, inGroup: boolean) {
  if (!inGroup) return `${SERVICE_NAMES[d.channel]}: ${d.title || d.chatId}`
  return d.threadId === '' ? 'The whole group' : `Topic: ${d.threadTitle ?? d.threadId}`
}

function Item(props: { d: CommunityDestinationRow; edit?: CommunityEdit; inGroup?: boolean }) {
  const { d, edit, inGroup = false } = props
  const titleId = `community-${d.id}-title`
  // The topic's line is the heading under its group.
  const [, ...settings] = describeDestination(d)
    .split('\n')
    .filter((line) => !line.startsWith('Topic: '))
  const Heading = inGroup ? 'h4' : 'h3'
  return (
    <li class="card community" data-destination-id={d.id} aria-labelledby={titleId}>
      <Heading id={titleId}>{heading(d, inGroup)}</Heading>
      <p class="meta">{d.platforms.map(platformName).join(', ')}</p>
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
      <EditForm d={d} edit={edit} />
      <form method="post" action={`/app/communities/${d.id}/release`}>
        <CsrfField />
        <button type="submit" class="button-secondary" aria-describedby={titleId}>
          Release
        </button>
      </form>
    </li>
  )
}

/** The destinations by chat, in the order their first one comes: a group's topics together. */
function placesOf(destinations: CommunityDestinationRow[]) {
  const places = new Map<string, CommunityDestinationRow[]>()
  for (const d of destinations) {
    const key = `${d.channel}:${d.chatId}`
    places.set(key, [...(places.get(key) ?? []), d])
  }
  // The whole group first, then its topics by name.
  const order = (d: CommunityDestinationRow) => (d.threadId === '' ? '' : `~${d.threadTitle}`)
  return [...places.values()].map((p) => p.sort((a, b) => order(a).localeCompare(order(b))))
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
        {props.session.user.emailVerifiedAt == null ? (
          <p id="claim-unverified">{UNVERIFIED_CANNOT_CLAIM}.</p>
        ) : code ? (
          <p id="claim-code" class="secret">
            Your code: <strong>{code.value}</strong>. In the chat, an administrator sends{' '}
            <code>/claim {code.value}</code> (Telegram) or <code>/contests claim</code> with it
            (Discord), before {formatTime(code.expiresAt)}. It works once.
          </p>
        ) : (
          <p>Make a code, then send it in the chat you want to claim.</p>
        )}
        {props.session.user.emailVerifiedAt != null && (
          <form method="post" action="/app/communities/claim-code">
            <CsrfField />
            <button type="submit">Make a claim code</button>
          </form>
        )}
      </section>
      <section aria-labelledby="claimed-title">
        <h2 id="claimed-title">Your communities</h2>
        {destinations.length === 0 ? (
          <p id="no-communities">No community is claimed by your account.</p>
        ) : (
          <ul class="cards communities">
            {placesOf(destinations).map((place) =>
              place.length === 1 && place[0].threadId === '' ? (
                <Item d={place[0]} edit={props.edit?.id === place[0].id ? props.edit : undefined} />
              ) : (
                <li class="community-group" data-chat-id={place[0].chatId}>
                  <h3>
                    {SERVICE_NAMES[place[0].channel]}: {place[0].title || place[0].chatId}
                  </h3>
                  <ul class="cards communities topics">
                    {place.map((d) => (
                      <Item d={d} inGroup edit={props.edit?.id === d.id ? props.edit : undefined} />
                    ))}
                  </ul>
                </li>
              ),
            )}
          </ul>
        )}
      </section>
    </AppFrame>
  )
}
