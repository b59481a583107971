// The email an operator receives for a contact-form message: subject line, HTML table and a
// plain-text part. Every value the visitor typed is HTML-escaped before it enters the HTML.
import { escapeHtml } from '../lib/html.ts'

export const CONTACT_SUBJECT_LABEL = '[Contest Alerts Contact]'

export interface ContactInput {
  name: string
  email: string
  subject: string
  message: string
}

// A mail header is one line: line breaks (or other control characters) in the visitor's subject
// must not reach it, whatever the provider does with them.
const oneLine = (text: string) => text.replace(/[\s\p{Cc}]+/gu, ' ').trim()

const row = (label: string, value: string) =>
  `<tr><th align="left" valign="top" style="padding: 6px 12px 6px 0">${label}</th>` +
  `<td style="padding: 6px 0">${value}</td></tr>`

export function contactEmail(input: ContactInput) {
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; color: #111">',
    '<h2 style="margin: 0 0 12px">New contact form message</h2>',
    '<table style="border-collapse: collapse">',
    row('Name', escapeHtml(input.name)),
    row('Email', escapeHtml(input.email)),
    row('Subject', escapeHtml(input.subject)),
    row('Message', `<pre style="white-space: pre-wrap">${escapeHtml(input.message)}</pre>`),
    '</table>',
    '</body></html>',
  ].join('\n')
  const text = [
    `Name: ${input.name}`,
    `Email: ${input.email}`,
    `Subject: ${input.subject}`,
    '',
    input.message,
  ].join('\n')
  return { subject: `${CONTACT_SUBJECT_LABEL} ${oneLine(input.subject)}`, html, text }
}

/**
 * The visitor's address as a Reply-To, when it looks like one. The form does not validate it
 * (spec), and a provider refuses the whole message for a malformed Reply-To, so anything else is
 * only shown in the body.
 */
export function replyToOf(email: string): string | undefined {
  return /^[^\s@<>()",;:[\]\\]+@[^\s@<>()",;:[\]\\]+\.[^\s@<>()",;:[\]\\]+$/.test(email)
    ? email
    : undefined
}
