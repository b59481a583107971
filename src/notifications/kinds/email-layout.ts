// The frame every notification email shares (greeting, heading, footer with the preferences and
// unsubscribe links) and the plain email of a headline and one paragraph. Kinds escape every
// value that came from a person or a platform before it reaches the HTML.
import { escapeHtml, escapeMultiline, safeHref } from '../../lib/html.ts'
import type { ContentContext, Recipient } from './rendering.ts'

export interface EmailContent {
  subject: string
  html: string
  text: string
}

export const para = (html: string) => `<p style="margin:0 0 16px">${html}</p>`

/** A link styled as a button; nothing when there is no safe link. */
export function button(href: string | undefined, label: string): string {
  if (!href) return ''
  return para(
    `<a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;` +
      `color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a>`,
  )
}

/** Where the footer points: the preferences (the app) and, when signed, the unsubscribe page. */
export type FooterLinks = Pick<ContentContext, 'appUrl' | 'unsubscribeUrl'>

const WHY = 'You get this email because of your Contest Alerts preferences.'

function footerHtml({ appUrl, unsubscribeUrl }: FooterLinks): string {
  const link = (href: string, label: string) =>
    ` <a href="${href}" style="color:#7b8794">${label}</a>.`
  const manage = safeHref(appUrl)
  const unsubscribe = safeHref(unsubscribeUrl)
  return (
    WHY +
    (manage ? link(manage, 'Change them') : '') +
    (unsubscribe ? link(unsubscribe, 'Unsubscribe from these emails') : '')
  )
}

/** The HTML document around a kind's body: the heading is escaped here. */
export function layout(heading: string, body: string, links: FooterLinks): string {
  return (
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f5f7fa">' +
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;' +
    'font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">' +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(heading)}</h1>${body}` +
    `<p style="margin:32px 0 0;font-size:12px;color:#7b8794">${footerHtml(links)}</p>` +
    '</div></body></html>'
  )
}

export const textFooter = ({ appUrl, unsubscribeUrl }: FooterLinks) =>
  `\n\n--\nYou get this email because of your Contest Alerts preferences: ${appUrl}\n` +
  (unsubscribeUrl ? `Unsubscribe from these emails: ${unsubscribeUrl}\n` : '')

/** The email of a kind that has no layout of its own: the headline and one paragraph. */
export function plainEmail(
  subject: string,
  message: string,
  r: Recipient,
  links: FooterLinks,
): EmailContent {
  const html = para(`Hello ${escapeHtml(r.name)},`) + para(escapeMultiline(message))
  const text = `Hello ${r.name},\n\n${message}\n${textFooter(links)}`
  return { subject, html: layout(subject, html, links), text }
}
