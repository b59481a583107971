// Which kind module renders a stored notification: the one its payload's kind names, the plain
// message otherwise (a notification stored by an older version keeps rendering).
import { announcementKind } from './announcement.ts'
import { bulkEmailKind } from './bulk-email.ts'
import { cancellationKind } from './cancellation.ts'
import { digestKind } from './digest.ts'
import { friendsResultsKind } from './friends-results.ts'
import type { NotificationKind } from './kind.ts'
import { messageKind } from './message.ts'
import { reminderKind } from './reminder.ts'
import { kindOf, type StoredNotification } from './rendering.ts'
import { rescheduleKind } from './reschedule.ts'
import { resultKind } from './result.ts'

// A Map, not an object: a payload's kind is stored data and must not reach Object.prototype.
const KINDS = new Map(
  [
    reminderKind,
    rescheduleKind,
    cancellationKind,
    digestKind,
    announcementKind,
    bulkEmailKind,
    resultKind,
    friendsResultsKind,
    messageKind,
  ].map((kind) => [kind.name, kind]),
)

export function notificationKind(n: StoredNotification): NotificationKind {
  return KINDS.get(kindOf(n)) ?? messageKind
}
