// Emails that tell an account's owner of a change they may not have made themselves: a new
// password, a deleted account. Whoever holds a stolen session or password can do either; the
// notice lets the owner take the account back (a reset, or a recovery within 30 days), and a new
// password's notice lists what the account's alerts reach, each with a signed removal link, since
// a reset alone leaves a taker's feed, chat or phone attached. Sent after the change is stored and
// after the answer: a provider failure is logged, and the change stands.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { sendEmail } from '../channels/email/resend.ts'
import { settings, type Env } from '../env.ts'
import { defer } from '../http/defer.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'

/** A linked destination in words, and the signed link that removes it. */
export interface DestinationRemoval {
  label: string
  removeUrl: string
}

/** What the password-changed notice lists, as it is when the notice is sent. */
export interface DestinationRemovals {
  items: DestinationRemoval[]
  /** Removes every destination and signs out every session. */
  removeAllUrl: string
  /** How long the links work. */
  validDays: number
}

/**
 * Lists a user's destinations with their removal links, or undefined when the account is gone.
 * The account feature makes them (the calendar and the links live above auth); the app hands the
 * function to the auth router.
 */
export type ListDestinationRemovals = (
  env: Env,
  userId: string,
  now: number,
) => Promise<DestinationRemovals | undefined>

export type SecurityNotice =
  // Undefined when they could not be listed: the notice still goes, pointing to the account page.
  | { kind: 'password-changed'; destinations: DestinationRemovals | undefined }
  | { kind: 'account-deleted'; recoverableUntil: number }

export interface NoticeRecipient {
  email: string
  name: string
  /** Whether the address is proven: a mail to an unproven one quotes nothing its holder typed. */
  proven: boolean
}

/** `2026-11-23 20:51 UTC`: the one zone every reader can place. */
const utc = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`

/** A paragraph: text, or text and a link (shown in full in the text part, as a link in HTML). */
type Paragraph = string | { text: string; url: string; linkText?: string }

/** One paragraph, or a list of them. */
type Block = Paragraph | { list: Paragraph[] }

/** What the account's alerts reach, each with its removal link; one line when nothing is. */
function destinationBlocks(destinations: DestinationRemovals | undefined, appUrl: string): Block[] {
  if (!destinations) {
    return [
      'The places your alerts go could not be listed just now. See them, and remove any you do ' +
        `not know, at ${appUrl}/app/account.`,
    ]
  }
  const { items, removeAllUrl, validDays } = destinations
  const valid = `These links work for ${validDays} days; each asks before it removes anything.`
  if (items.length === 0) {
    return [
      'Nothing else gets this account’s alerts: no calendar feed, Telegram chat, Discord or ' +
        'Slack channel, browser or phone is linked.',
      { text: 'To sign out everywhere:', url: removeAllUrl, linkText: 'sign out everywhere' },
      valid,
    ]
  }
  return [
    'Your alerts also go to the places below. Whoever held the account may have linked one to ' +
      'keep hearing from it: remove any you do not recognise.',
    {
      list: items.map((item) => ({
        text: `${item.label}:`,
        url: item.removeUrl,
        linkText: 'remove',
      })),
    },
    {
      text: 'Remove all of them and sign out everywhere:',
      url: removeAllUrl,
      linkText: 'remove all and sign out everywhere',
    },
    valid,
  ]
}

/** The notice's subject and blocks; links are absolute, from APP_URL. */
function wording(notice: SecurityNotice, at: number, appUrl: string) {
  if (notice.kind === 'password-changed') {
    return {
      subject: 'Your Contest Alerts password was changed',
      blocks: [
        `The password of your Contest Alerts account was changed on ${utc(at)}, and your other ` +
          'sessions were signed out.',
        `If you did not change it, reset it now at ${appUrl}/app/forgot with this email address.`,
        ...destinationBlocks(notice.destinations, appUrl),
      ],
    }
  }
  return {
    subject: 'Your Contest Alerts account was deleted',
    blocks: [
      `Your Contest Alerts account was deleted on ${utc(at)}, and every session was signed out.`,
      `You can recover it with your email and password until ${utc(notice.recoverableUntil)} ` +
        `at ${appUrl}/app/account/recover; after that it is removed for good.`,
      'If you did not delete it, recover it and change your password.',
    ],
  }
}

const paragraphText = (p: Paragraph) => (typeof p === 'string' ? p : `${p.text} ${p.url}`)

function paragraphHtml(p: Paragraph) {
  if (typeof p === 'string') return escapeHtml(p)
  const link = `<a href="${escapeHtml(p.url)}">${escapeHtml(p.linkText ?? p.url)}</a>`
  return `${escapeHtml(p.text)} ${link}`
}

const blockText = (b: Block) =>
  typeof b === 'object' && 'list' in b
    ? b.list.map((p) => `- ${paragraphText(p)}`).join('\n')
    : paragraphText(b)

const blockHtml = (b: Block) =>
  typeof b === 'object' && 'list' in b
    ? `<ul>${b.list.map((p) => `<li>${paragraphHtml(p)}</li>`).join('')}</ul>`
    : `<p>${paragraphHtml(b)}</p>`

export function securityNoticeEmail(
  notice: SecurityNotice,
  to: NoticeRecipient,
  at: number,
  appUrl: string,
) {
  const { subject, blocks } = wording(notice, at, appUrl.replace(/\/+$/, ''))
  const all: Block[] = [to.proven ? `Hello ${to.name},` : 'Hello,', ...blocks]
  return {
    subject,
    text: `${all.map(blockText).join('\n\n')}\n`,
    html: all.map(blockHtml).join('\n'),
  }
}

export async function sendSecurityNotice(
  env: Env,
  to: NoticeRecipient,
  notice: SecurityNotice,
  at: number,
) {
  const message = securityNoticeEmail(notice, to, at, settings(env).APP_URL)
  const result = await sendEmail(env, { to: to.email, ...message }).catch((error: unknown) => ({
    ok: false as const,
    provider: 'resend' as const,
    error: String(error),
  }))
  // No provider at all is a setting, already visible in /notifications/health.
  if (!result.ok && result.provider !== 'none') {
    log.error('security-notice-not-sent', { kind: notice.kind, error: result.error })
  }
}

/** Sends the notice after the answer goes out, so its timing and failures never show in it. */
export function noticeAfterAnswer(
  c: Context<AppEnv>,
  to: NoticeRecipient,
  notice: SecurityNotice,
  at: number,
) {
  return defer(c, () => sendSecurityNotice(c.env, to, notice, at))
}

/**
 * The password-changed notice, after the answer, listing the destinations as they are then. A
 * failure to list them still sends the notice (it says so): the owner must hear of the change.
 */
export function passwordChangedAfterAnswer(
  c: Context<AppEnv>,
  to: NoticeRecipient & { userId: string },
  listDestinations: ListDestinationRemovals,
  at: number,
) {
  return defer(c, async () => {
    const destinations = await listDestinations(c.env, to.userId, at).catch((error: unknown) => {
      log.error('security-notice-destinations-failed', { error })
      return undefined
    })
    await sendSecurityNotice(c.env, to, { kind: 'password-changed', destinations }, at)
  })
}
