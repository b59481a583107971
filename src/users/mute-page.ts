// The HTML pages of the mute link (confirm, done, dead ends); every value escaped, no script.
import type { ContestRow } from '../db/schema.ts'
import { escapeHtml } from '../lib/html.ts'
import type { MuteLinkTarget } from './mute-by-link.ts'

export interface Page {
  status: 200 | 400 | 410
  html: string
}

const STYLE =
  'body{margin:0;padding:24px;background:#f5f7fa;font-family:Arial,Helvetica,sans-serif;' +
  'font-size:15px;line-height:1.5;color:#1f2933}main{max-width:480px;margin:0 auto;' +
  'padding:24px;background:#fff}h1{font-size:20px;margin:0 0 16px}button{padding:10px 18px;' +
  'background:#2563eb;color:#fff;border:0;border-radius:6px;font-size:15px;cursor:pointer}'

function page(status: Page['status'], title: string, body: string): Page {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main>` +
    '</body></html>'
  return { status, html }
}

const para = (html: string) => `<p>${html}</p>`
const starts = (contest: ContestRow) => new Date(contest.startTime).toUTCString()

/** The page a GET shows: it names the contest and changes nothing; the button POSTs to `action`. */
export function confirmPage(contest: ContestRow, action: string): Page {
  return page(
    200,
    'Mute this contest?',
    para(
      `You will get no more reminders for <strong>${escapeHtml(contest.name)}</strong> ` +
        `(starts ${escapeHtml(starts(contest))}).`,
    ) +
      `<form method="post" action="${escapeHtml(action)}"><button type="submit">Mute it</button>` +
      '</form>',
  )
}

export function mutedPage(contest: ContestRow): Page {
  return page(
    200,
    'Contest muted',
    para(`You will get no more reminders for <strong>${escapeHtml(contest.name)}</strong>.`) +
      para('You can follow it again from your contest subscriptions at any time.'),
  )
}

export const invalidLinkPage = (): Page =>
  page(
    400,
    'This link is not valid',
    para('The link is incomplete or was changed. Open it from the email again.'),
  )

/** The page of a link whose account or contest is gone. */
export function gonePage(target: Exclude<MuteLinkTarget, { kind: 'ready' }>): Page {
  if (target.kind === 'account-gone') {
    return page(
      410,
      'This link no longer works',
      para('The account this email was sent to has been deleted.'),
    )
  }
  return page(
    410,
    'This contest is no longer listed',
    para('There is nothing left to mute: you will get no reminders for it.'),
  )
}
