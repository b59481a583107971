// The HTML pages of the mute link (confirm, done, dead ends); every value escaped, no script.
import type { ContestRow } from '../db/schema.ts'
import { escapeHtml } from '../lib/html.ts'
import { page, para, type Page } from './link-page.ts'
import type { MuteLinkTarget } from './mute-by-link.ts'

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
