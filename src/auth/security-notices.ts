// Emails that tell an account's owner of a change they may not have made themselves: a new
// password, a deleted account. Whoever holds a stolen session or password can do either; the
// notice lets the owner take the account back (a reset, or a recovery within 30 days). Sent after
// the change is stored and after the answer: a provider failure is logged, and the change stands.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { sendEmail } from '../channels/email.ts'
import { settings, type Env } from '../env.ts'
import { defer } from '../http/defer.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'

export type SecurityNotice =
  { kind: 'password-changed' } | { kind: 'account-deleted'; recoverableUntil: number }

export interface NoticeRecipient {
  email: string
  name: string
  /** Whether the address is proven: a mail to an unproven one quotes nothing its holder typed. */
  proven: boolean
}

/** `2026-11-23 20:51 UTC`: the one zone every reader can place. */
const utc = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`

/** The notice's subject and paragraphs; links are absolute, from APP_URL. */
function wording(notice: SecurityNotice, at: number, appUrl: string) {
  if (notice.kind === 'password-changed') {
    return {
      subject: 'Your Contest Alerts password was changed',
      paragraphs: [
        `The password of your Contest Alerts account was changed on ${utc(at)}, and your other ` +
          'sessions were signed out.',
        `If you did not change it, reset it now at ${appUrl}/app/forgot with this email address.`,
      ],
    }
  }
  return {
    subject: 'Your Contest Alerts account was deleted',
    paragraphs: [
      `Your Contest Alerts account was deleted on ${utc(at)}, and every session was signed out.`,
      `You can recover it with your email and password until ${utc(notice.recoverableUntil)} ` +
        `at ${appUrl}/app/account/recover; after that it is removed for good.`,
      'If you did not delete it, recover it and change your password.',
    ],
  }
}

export function securityNoticeEmail(
  notice: SecurityNotice,
  to: NoticeRecipient,
  at: number,
  appUrl: string,
) {
  const { subject, paragraphs } = wording(notice, at, appUrl.replace(/\/+$/, ''))
  const lines = [to.proven ? `Hello ${to.name},` : 'Hello,', ...paragraphs]
  return {
    subject,
    text: `${lines.join('\n\n')}\n`,
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
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
