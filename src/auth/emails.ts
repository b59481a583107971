// The emails that carry verification and password-reset codes, and what sending them reports.
import { sendEmail, type SendResult } from '../channels/email/resend.ts'
import { settings, type Env } from '../env.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'
import { toIso } from '../lib/time.ts'
import { CODE_TTL_MS, type CodePurpose } from './codes.ts'

const MINUTES = CODE_TTL_MS / 60_000

/**
 * The words of each code mail. Nothing the requester typed is quoted: the address may not be the
 * requester's, and a name is free text that would put their words in a real-looking mail to a
 * stranger. A verification code goes to an address nobody has proven yet, so its mail says what
 * happened and what to do when the reader did not sign up.
 */
function wording(purpose: CodePurpose, appUrl: string) {
  if (purpose === 'verify_email') {
    return {
      subject: 'Your Contest Alerts verification code',
      intro:
        'An account at Contest Alerts was just created with this email address. ' +
        'Use this code to verify the address:',
      outro: [
        `The code expires in ${MINUTES} minutes.`,
        'If you did not create this account, do not pass the code on to anyone: someone else ' +
          `used your address. Reset its password at ${appUrl}/app/forgot instead; the account is ` +
          'then yours alone, and every session the other person opened ends. Or ignore this ' +
          'email: an account nobody verifies is deleted after 7 days.',
      ],
    }
  }
  return {
    subject: 'Your Contest Alerts password reset code',
    intro: 'Use this code to choose a new password:',
    outro: [
      `The code expires in ${MINUTES} minutes. If you did not ask for it, ignore this email.`,
    ],
  }
}

export function codeEmail(purpose: CodePurpose, code: string, appUrl: string) {
  const { subject, intro, outro } = wording(purpose, appUrl.replace(/\/+$/, ''))
  return {
    subject,
    text: `Hello,\n\n${intro}\n\n${code}\n\n${outro.join('\n\n')}\n`,
    html: `<p>Hello,</p><p>${escapeHtml(intro)}</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p>
${outro.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}`,
  }
}

/** What an auth response says about the code it mailed; never claims a send that did not happen. */
export interface CodeDelivery {
  sent: boolean
  expiresAt?: string
  reason?: string
}

export async function sendCodeEmail(
  env: Env,
  to: { email: string },
  purpose: CodePurpose,
  code: string,
  expiresAt: number,
): Promise<{ delivery: CodeDelivery; result: SendResult }> {
  const message = codeEmail(purpose, code, settings(env).APP_URL)
  const result = await sendEmail(env, { to: to.email, ...message })
  if (!result.ok) {
    // A provider failure loses a code nobody else hears about (the code routes answer before
    // sending); no provider at all is a setting, already visible in the answers.
    const write = result.provider === 'none' ? log.warn : log.error
    write('code-email-not-sent', { purpose, error: result.error })
  }
  const delivery: CodeDelivery = result.ok
    ? { sent: true, expiresAt: toIso(expiresAt) }
    : {
        sent: false,
        reason:
          result.provider === 'none'
            ? 'Email delivery is not configured; no code was sent'
            : 'The email could not be sent; request a new code later',
      }
  return { delivery, result }
}
