// The HTML pages of the one-click unsubscribe link (confirm, done, account gone); no script.
import { escapeHtml } from '../lib/html.ts'
import { page, para, type Page } from './link-page.ts'

const SETTINGS = 'You can turn email on again in your notification preferences at any time.'

/** The page a GET shows: it changes nothing; its button POSTs the RFC 8058 body to `action`. */
export const confirmUnsubscribePage = (action: string): Page =>
  page(
    200,
    'Unsubscribe from these emails?',
    para('You will get no more contest reminders, digests or announcements by email.') +
      para('Account email (sign-in codes, password resets) still arrives.') +
      `<form method="post" action="${escapeHtml(action)}">` +
      '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
      '<button type="submit">Unsubscribe</button></form>',
  )

export const unsubscribedPage = (): Page =>
  page(
    200,
    'You are unsubscribed',
    para('You will get no more contest reminders, digests or announcements by email.') +
      para(SETTINGS),
  )

export const accountGonePage = (): Page =>
  page(
    410,
    'This link no longer works',
    para('The account this email was sent to has been deleted.'),
  )
