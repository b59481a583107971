// Drizzle schema of the D1 database; drizzle-kit turns it into the SQL migrations.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export const contests = sqliteTable(
  'contests',
  {
    id: text('id').primaryKey(),
    platformId: text('platform_id').notNull(),
    name: text('name').notNull(),
    platform: text('platform').notNull(),
    phase: text('phase').notNull(),
    type: text('type').notNull(),
    startTime: integer('start_time').notNull(),
    endTime: integer('end_time').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    description: text('description'),
    websiteUrl: text('website_url'),
    registrationUrl: text('registration_url'),
    difficulty: text('difficulty'),
    participantCount: integer('participant_count'),
    problemCount: integer('problem_count'),
    platformMetadata: text('platform_metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    isNotified: integer('is_notified', { mode: 'boolean' }).notNull().default(false),
    // iCalendar SEQUENCE: raised each time the start or end time changes, so calendars update.
    sequence: integer('sequence').notNull().default(0),
    // Digest of the upstream fields, so a sync compares one value and writes only changed rows.
    syncHash: text('sync_hash'),
    lastSyncedAt: integer('last_synced_at').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('contests_platform_platform_id').on(t.platform, t.platformId),
    // Every public list filters on is_active and orders or ranges on a time column.
    index('contests_active_start').on(t.isActive, t.startTime),
    index('contests_active_end').on(t.isActive, t.endTime),
    index('contests_platform_start').on(t.platform, t.startTime),
    index('contests_type_start').on(t.type, t.startTime),
    index('contests_difficulty_start').on(t.difficulty, t.startTime),
  ],
)

export type ContestRow = typeof contests.$inferSelect
export type NewContestRow = typeof contests.$inferInsert

// Accounts. Preferences are columns (not JSON) so the notification scheduler can filter on them in
// SQL; `platforms` keeps the order the user chose, `user_platforms` mirrors it for indexed matching.
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    phoneNumber: text('phone_number'),
    // The number a WhatsApp code proved the user holds, and when. WhatsApp is used only while it
    // equals phone_number; a profile update that changes the number clears both.
    phoneVerifiedAt: integer('phone_verified_at'),
    phoneVerifiedNumber: text('phone_verified_number'),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    emailVerifiedAt: integer('email_verified_at'),
    platforms: text('platforms', { mode: 'json' }).$type<string[]>().notNull(),
    alertFrequency: text('alert_frequency', { enum: ['immediate', 'daily', 'weekly'] })
      .notNull()
      .default('immediate'),
    contestTypes: text('contest_types', { mode: 'json' }).$type<string[]>().notNull(),
    notifyEmail: integer('notify_email', { mode: 'boolean' }).notNull().default(true),
    notifyWhatsapp: integer('notify_whatsapp', { mode: 'boolean' }).notNull().default(true),
    notifyPush: integer('notify_push', { mode: 'boolean' }).notNull().default(false),
    notifyTelegram: integer('notify_telegram', { mode: 'boolean' }).notNull().default(false),
    notifyDiscord: integer('notify_discord', { mode: 'boolean' }).notNull().default(false),
    notifySlack: integer('notify_slack', { mode: 'boolean' }).notNull().default(false),
    // The Telegram chat the bot writes to, set when the user sends /start with a link token.
    telegramChatId: text('telegram_chat_id'),
    // A Discord channel webhook the user pasted (discord.com/api/webhooks/...).
    discordWebhookUrl: text('discord_webhook_url'),
    // A Slack incoming webhook the user pasted (hooks.slack.com/services/...).
    slackWebhookUrl: text('slack_webhook_url'),
    // The longest lead time in hours, rounded up (the spec's notifyBefore), kept with lead_times.
    notifyBefore: integer('notify_before').notNull().default(24),
    // Minutes before a contest's start at which it is reminded about: 1 to 5 distinct values.
    leadTimes: text('lead_times', { mode: 'json' })
      .$type<number[]>()
      .notNull()
      .default(sql`'[1440]'`),
    // Quiet hours as local 'HH:MM' in `timezone`; both null when the user has none.
    quietStart: text('quiet_start'),
    quietEnd: text('quiet_end'),
    // Noise filters: contest length bounds in minutes, and words that drop a contest by its name.
    minDuration: integer('min_duration'),
    maxDuration: integer('max_duration'),
    excludeWords: text('exclude_words', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    timezone: text('timezone').notNull().default('UTC'),
    // Google's `sub` of the Google account linked at the first Google sign-in; later ones find the
    // account by it, so a changed address at Google still reaches it and another `sub` does not.
    googleSubject: text('google_subject'),
    lastLogin: integer('last_login'),
    deletedAt: integer('deleted_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('users_email').on(t.email),
    // Unique among the accounts that have one: SQLite lets any number of rows hold NULL.
    uniqueIndex('users_google_subject').on(t.googleSubject),
    // Admin list: newest first, id as the tie-breaker.
    index('users_created').on(t.createdAt, t.id),
    // Digests select users by frequency and the time zone whose local 09:00 it is.
    index('users_frequency_timezone').on(t.alertFrequency, t.timezone),
  ],
)

// A user's choice about one contest: 'follow' reminds about it whatever the preferences say,
// 'mute' never does. No row is the default: the preferences decide.
export const contestSubscriptions = sqliteTable(
  'contest_subscriptions',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contestId: text('contest_id')
      .notNull()
      .references(() => contests.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: ['follow', 'mute'] }).notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.contestId] }),
    // The scheduler asks "who follows (or muted) this contest?".
    index('contest_subscriptions_contest_mode').on(t.contestId, t.mode, t.userId),
  ],
)

// A user's private calendar feed: the secret in its address is stored only as its SHA-256.
export const calendarFeeds = sqliteTable(
  'calendar_feeds',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash').on(t.tokenHash)],
)

export const userPlatforms = sqliteTable(
  'user_platforms',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.platform] }),
    // The scheduler asks "who follows this platform?"; this index answers without a scan.
    index('user_platforms_platform_user').on(t.platform, t.userId),
  ],
)

// One row per sign-in. The refresh token in use is stored only as its SHA-256; `role` is frozen at
// sign-in so a role change reaches the user at the next sign-in.
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull(),
    // 'web': the browser's cookie session of the web app, whose secret is the refresh_hash's token
    // and is never exchanged for API tokens; 'api': a client's refresh-token session.
    kind: text('kind', { enum: ['api', 'web'] })
      .notNull()
      .default('api'),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
    createdAt: integer('created_at').notNull(),
    refreshedAt: integer('refreshed_at'),
  },
  (t) => [
    uniqueIndex('sessions_refresh_hash').on(t.refreshHash),
    index('sessions_user').on(t.userId),
    index('sessions_expires').on(t.expiresAt),
  ],
)

// Refresh tokens already exchanged: presenting one again means it leaked, so its session is revoked.
export const rotatedRefreshTokens = sqliteTable(
  'rotated_refresh_tokens',
  {
    hash: text('hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    rotatedAt: integer('rotated_at').notNull(),
  },
  (t) => [index('rotated_refresh_tokens_session').on(t.sessionId)],
)

// Six-digit codes sent to users (by email, or by WhatsApp for `verify_phone`), and the claim codes
// of the Communities page (`claim_community`, found by their hash alone); one live code per user
// and purpose, stored as a hash. The purpose has no CHECK constraint in SQL.
export const emailCodes = sqliteTable(
  'email_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', {
      enum: ['verify_email', 'reset_password', 'verify_phone', 'claim_community'],
    }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.purpose] }),
    index('email_codes_expires').on(t.expiresAt),
  ],
)

// Web Push subscriptions; an endpoint belongs to one browser, so it is unique across users.
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint').on(t.endpoint),
    index('push_subscriptions_user').on(t.userId),
  ],
)

// A channel the service turned off for a user (a hard bounce, a complaint, push subscriptions the
// push service no longer knows): why and since when. Turning the channel on again deletes it.
export const channelBlocks = sqliteTable(
  'channel_blocks',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // One of the channels the registry marks blockable (src/channels/registry.ts).
    channel: text('channel').notNull(),
    reason: text('reason', {
      enum: ['bounced', 'complained', 'subscription-expired', 'bot-blocked', 'webhook-unknown'],
    }).notNull(),
    blockedAt: integer('blocked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel] })],
)

// One-time tokens of Telegram deep links (t.me/<bot>?start=<token>), stored as their SHA-256; the
// bot's webhook links the chat that sends `/start <token>` before `expires_at`.
export const telegramLinks = sqliteTable(
  'telegram_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('telegram_links_user').on(t.userId)],
)

export type UserRow = typeof users.$inferSelect
export type NewUserRow = typeof users.$inferInsert
export type SessionRow = typeof sessions.$inferSelect
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect

// One row per sync of one platform: what it found and wrote, or why it failed.
export const syncRuns = sqliteTable(
  'sync_runs',
  {
    id: text('id').primaryKey(),
    platform: text('platform').notNull(),
    status: text('status', { enum: ['success', 'failed'] }).notNull(),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at').notNull(),
    created: integer('created').notNull(),
    updated: integer('updated').notNull(),
    unchanged: integer('unchanged').notNull(),
    skipped: integer('skipped').notNull(),
    error: text('error'),
  },
  (t) => [index('sync_runs_platform_finished').on(t.platform, t.status, t.finishedAt)],
)

// One row per platform: how its sources fare now and the open incident (degraded, failing or
// blocked) whose events went out once.
export const platformStatus = sqliteTable('platform_status', {
  platform: text('platform').primaryKey(),
  state: text('state', { enum: ['ok', 'degraded', 'failing', 'blocked'] }).notNull(),
  /** Where the stored contests last came from: the platform's own source or clist.by. */
  source: text('source', { enum: ['own', 'clist'] }).notNull(),
  lastSuccessAt: integer('last_success_at'),
  lastAttemptAt: integer('last_attempt_at').notNull(),
  /** When the open incident began (null while healthy): its events are sent once. */
  incidentStartedAt: integer('incident_started_at'),
  /** A blocked source (403, 429) is not asked again before this moment. */
  retryAfter: integer('retry_after'),
  /** Consecutive blocked answers, for the backoff's doubling. */
  blockedCount: integer('blocked_count').notNull().default(0),
  lastError: text('last_error'),
})

export type PlatformStatusRow = typeof platformStatus.$inferSelect

// Named leases that keep two runs of one job from overlapping; a crashed holder's lease expires.
export const jobLocks = sqliteTable('job_locks', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
})

// One row per run of a cron job (status/job-runs.ts): the watchdog's evidence that a job runs,
// and the last run /status shows. Kept a week (the daily cleanup removes older runs).
export const jobRuns = sqliteTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    cron: text('cron').notNull(),
    startedAt: integer('started_at').notNull(),
    /** Null while the run is going (or when its isolate died before it could say). */
    finishedAt: integer('finished_at'),
    outcome: text('outcome', { enum: ['running', 'ok', 'failed'] }).notNull(),
    error: text('error'),
  },
  (t) => [index('job_runs_job_started').on(t.job, t.startedAt)],
)

export type JobRunRow = typeof jobRuns.$inferSelect

// Incidents of platforms (opened and closed by the sync) and of the service itself (the
// watchdog: a job that stopped, deliveries failing), kept 30 days after they close for /status.
// At most one open incident per subject, and one row per opening: concurrent runs that see the
// same trouble open it once, and the one whose UPDATE closes it is the one that tells.
export const incidents = sqliteTable(
  'incidents',
  {
    id: text('id').primaryKey(),
    scope: text('scope', { enum: ['platform', 'service'] }).notNull(),
    /** A platform id, or the service's part: scheduler, sync, deliveries. */
    subject: text('subject').notNull(),
    /** A platform's state when it opened (degraded, failing, blocked); stopped or failing. */
    kind: text('kind').notNull(),
    /** Our own words, never a person's data: which channels fail, since when a job has not run. */
    detail: text('detail'),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
  },
  (t) => [
    uniqueIndex('incidents_opening').on(t.scope, t.subject, t.startedAt),
    uniqueIndex('incidents_open')
      .on(t.scope, t.subject)
      .where(sql`ended_at IS NULL`),
    index('incidents_ended').on(t.endedAt),
  ],
)

export type IncidentRow = typeof incidents.$inferSelect

// A contest still to come that its platform's healthy source stopped listing, kept until the
// notifier has told its followers it was cancelled.
export const contestCancellations = sqliteTable(
  'contest_cancellations',
  {
    id: text('id').primaryKey(),
    contestId: text('contest_id')
      .notNull()
      .references(() => contests.id, { onDelete: 'cascade' }),
    /** The start it had: told apart from a later cancellation after it came back and moved. */
    startTime: integer('start_time').notNull(),
    detectedAt: integer('detected_at').notNull(),
    handledAt: integer('handled_at'),
  },
  (t) => [index('contest_cancellations_pending').on(t.handledAt, t.detectedAt)],
)

// A changed start time of an upcoming contest, kept until the notifier has handled it.
export const contestReschedules = sqliteTable(
  'contest_reschedules',
  {
    id: text('id').primaryKey(),
    contestId: text('contest_id')
      .notNull()
      .references(() => contests.id, { onDelete: 'cascade' }),
    oldStartTime: integer('old_start_time').notNull(),
    newStartTime: integer('new_start_time').notNull(),
    detectedAt: integer('detected_at').notNull(),
    handledAt: integer('handled_at'),
  },
  (t) => [index('contest_reschedules_pending').on(t.handledAt, t.detectedAt)],
)

export type SyncRunRow = typeof syncRuns.$inferSelect

// The types of notification, stored by notifications and their contents.
export const NOTIFICATION_TYPES = [
  'CONTEST_REMINDER',
  'CONTEST_STARTING',
  'CONTEST_ENDING',
  'SYSTEM_ALERT',
  // A contest's results (notifications/kinds/result.ts, friends-results.ts); TS-only like the
  // rest, so no migration.
  'CONTEST_RESULT',
] as const

// What a notification says (title, message, payload), stored once for every recipient: a
// reminder's words are the same for all followers of a contest and lead time, and were 40% of the
// bytes of each of their notifications. A notice about a contest is its (contest, type, dedupe
// key), which its notifications then leave out of their own rows and unique key; other kinds are
// found by a digest of their words. `used_at` is the creation time of the newest notification
// pointing at it, so the removal of expired notifications can remove what nothing points at.
export const notificationContents = sqliteTable(
  'notification_contents',
  {
    id: integer('id').primaryKey(),
    contestId: text('contest_id').references(() => contests.id, { onDelete: 'set null' }),
    type: text('type', { enum: NOTIFICATION_TYPES }),
    dedupeKey: text('dedupe_key'),
    digest: text('digest').unique(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>(),
    usedAt: integer('used_at').notNull(),
  },
  (t) => [uniqueIndex('notification_contents_notice').on(t.contestId, t.type, t.dedupeKey)],
)

/** Which notifications the digest key holds (the condition of its partial unique index). */
export const DIGEST_KEY_SQL =
  "contest_id IS NULL AND (dedupe_key LIKE 'daily:%' OR dedupe_key LIKE 'weekly:%')"

// Notifications: the unique key makes a second or concurrent scheduler run a no-op for a reminder.
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contestId: text('contest_id').references(() => contests.id, { onDelete: 'set null' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    // Empty (payload null) when the words are the content's; a row keeps its own only when they
    // differ from it, and rows made before contents existed keep theirs (contents.ts).
    title: text('title').notNull(),
    message: text('message').notNull(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>(),
    contentId: integer('content_id'),
    channels: text('channels', { mode: 'json' }).$type<string[]>().notNull(),
    status: text('status', { enum: ['PENDING', 'SENT', 'FAILED', 'RETRYING'] })
      .notNull()
      .default('PENDING'),
    // Distinguishes deliberate repeats of one (user, contest, type), e.g. the start time a reminder
    // was for, so a rescheduled contest can be reminded again. Empty on a notice about a contest:
    // its content holds it.
    dedupeKey: text('dedupe_key').notNull().default(''),
    scheduledAt: integer('scheduled_at'),
    sentAt: integer('sent_at'),
    failedAt: integer('failed_at'),
    readAt: integer('read_at'),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // Once per user and notice: the content stands for (contest, type, dedupe key), so the key
    // holds two ids and a small integer. Contest first: a page of a contest's followers inserts
    // into one stretch of the index, where user first scattered every insert to its user's own
    // leaf. The same prefix serves the contest's lookups and its ON DELETE, and user id next walks
    // a contest's reminded users in order (reschedules.ts).
    uniqueIndex('notifications_dedupe').on(t.contestId, t.userId, t.contentId),
    // SQLite treats NULLs as distinct, so digests (no contest) need their own key: one per user,
    // frequency and local date, even across concurrent scheduler runs. Limited to digest keys:
    // deleting a contest sets its reminders' contest_id to NULL, and those must not collide.
    uniqueIndex('notifications_digest_dedupe')
      .on(t.userId, t.type, t.dedupeKey)
      .where(sql.raw(DIGEST_KEY_SQL)),
    index('notifications_user_created').on(t.userId, t.createdAt),
    // No index on created_at, status or expires_at: the admin history, the cleanup by age and the
    // daily removal of expired notifications go by id, which begins with the second of creation
    // (history.ts, cleanup.ts), and every reminder would write each index once more.
  ],
)

// One delivery per channel of a notification, with its own status and retry count.
export const notificationDeliveries = sqliteTable(
  'notification_deliveries',
  {
    id: text('id').primaryKey(),
    notificationId: text('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    // A channel of the registry (src/channels/registry.ts).
    channel: text('channel').notNull(),
    status: text('status', { enum: ['PENDING', 'SENT', 'FAILED', 'RETRYING'] })
      .notNull()
      .default('PENDING'),
    retryCount: integer('retry_count').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    providerMessageId: text('provider_message_id'),
    // What the provider reported after accepting the message (Resend's webhooks, email only).
    providerOutcome: text('provider_outcome', { enum: ['delivered', 'bounced', 'complained'] }),
    // Set once the delivery's queue message was accepted; a row left without it (a run that died
    // between insert and enqueue) is enqueued again by the next scheduler run.
    queuedAt: integer('queued_at'),
    // A consumer holds the delivery until then while it sends, so a duplicate queue message
    // arriving meanwhile does not send a second time.
    claimedUntil: integer('claimed_until'),
    error: text('error'),
    sentAt: integer('sent_at'),
    failedAt: integer('failed_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_channel').on(t.notificationId, t.channel),
    // Channel health reads the recent outcomes; a delivery not yet attempted is none, so pending
    // ones (every delivery when it is made) stay out of the index until their first outcome.
    index('notification_deliveries_status')
      .on(t.status, t.updatedAt)
      .where(sql`status <> 'PENDING'`),
    // A provider's event names the message by the id the provider gave it.
    index('notification_deliveries_provider_message')
      .on(t.providerMessageId)
      .where(sql`provider_message_id IS NOT NULL`),
    index('notification_deliveries_unqueued')
      .on(t.createdAt)
      .where(sql`queued_at IS NULL`),
  ],
)

/**
 * The columns of a row that queue messages claim and send once (reminder edits, community
 * announcements, events, rank posts and message changes), after the row's own: its state (`done`:
 * SENT for a post, DONE for a change), retries and attempts, the last error, when it was queued,
 * the claim (`claimed_until`, also the hold of a RETRYING row until its next attempt) and its times.
 * A function, so that each table gets builders of its own.
 */
function claimedRowColumns<const Done extends 'SENT' | 'DONE'>(done: Done) {
  return {
    status: text('status', { enum: ['PENDING', done, 'FAILED', 'RETRYING'] })
      .notNull()
      .default('PENDING'),
    retryCount: integer('retry_count').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    queuedAt: integer('queued_at'),
    claimedUntil: integer('claimed_until'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  }
}

// A reminder a person's chat received (a Telegram chat, a Discord webhook), edited in place when its
// contest moved or was cancelled: keyed `<what it says now>#<edits before it>` per delivery, so each
// change is made once however runs race; claimed and retried as deliveries are.
export const notificationEdits = sqliteTable(
  'notification_edits',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: 'cascade' }),
    changeKey: text('change_key').notNull(),
    // The start the edited message states; NULL: it says the contest is cancelled.
    startTime: integer('start_time'),
    ...claimedRowColumns('DONE'),
  },
  (t) => [
    uniqueIndex('notification_edits_once').on(t.deliveryId, t.changeKey),
    index('notification_edits_unqueued')
      .on(t.createdAt)
      .where(sql`queued_at IS NULL`),
  ],
)

// The delivery log: one row per attempt of a delivery (and per provider event about it), with the
// provider's answer in words (notifications/delivery/attempt-log.ts). Rows go with their
// notification (cleanup and deletion remove them first; the foreign keys cascade too), and a
// delivery keeps at most MAX_LOGGED_ATTEMPTS of its attempts.
export const deliveryAttempts = sqliteTable(
  'delivery_attempts',
  {
    id: integer('id').primaryKey(),
    notificationId: text('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    // No foreign key: its check on every delivery deleted would scan this table (no index on the
    // column); the notification's key, whose index leads with it, removes the rows with it.
    deliveryId: text('delivery_id').notNull(),
    channel: text('channel').notNull(),
    at: integer('at').notNull(),
    outcome: text('outcome', {
      enum: ['delivered', 'temporary_failure', 'refused', 'destination_gone', 'given_up'],
    }).notNull(),
    // Bounded (attempt-log.ts), without URLs' secrets or phone numbers.
    message: text('message').notNull(),
  },
  // The history reads a page of notifications' attempts by notification.
  (t) => [index('delivery_attempts_notification').on(t.notificationId, t.id)],
)

// Contact form messages, stored before the email goes out so none is lost if the provider is down.
export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    ip: text('ip'),
    emailStatus: text('email_status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    emailError: text('email_error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('contact_messages_created').on(t.createdAt)],
)

// Conversations and messages of the second API area (counted by the admin statistics).
export const conversations = sqliteTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('conversations_user').on(t.userId, t.createdAt)],
)

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant', 'system'] }).notNull(),
    content: text('content').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('messages_conversation').on(t.conversationId, t.createdAt)],
)

// Contributor submissions of knowledge resources, reviewed by admins.
export const submissions = sqliteTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    type: text('type', {
      enum: ['text', 'markdown', 'pdf', 'html', 'url', 'code', 'file'],
    }).notNull(),
    content: text('content'),
    sourceUrl: text('source_url'),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    feedback: text('feedback'),
    reviewedBy: text('reviewed_by'),
    reviewedAt: integer('reviewed_at'),
    resourceId: text('resource_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('submissions_status_created').on(t.status, t.createdAt),
    index('submissions_user_created').on(t.userId, t.createdAt),
  ],
)

// Ingestion jobs of the intelligence service, tracked so that none stays stuck in processing.
export const ingestionJobs = sqliteTable(
  'ingestion_jobs',
  {
    id: text('id').primaryKey(),
    resourceId: text('resource_id').notNull(),
    title: text('title').notNull(),
    type: text('type').notNull(),
    status: text('status', {
      enum: ['PENDING', 'PROCESSING', 'READY', 'FAILED', 'CANCELLED'],
    }).notNull(),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    createdBy: text('created_by'),
    submissionId: text('submission_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    index('ingestion_jobs_status_created').on(t.status, t.createdAt),
    index('ingestion_jobs_resource').on(t.resourceId),
  ],
)

// Webhook endpoints; the signing secret is kept encrypted, since it must be usable to sign.
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    secretCiphertext: text('secret_ciphertext').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    disabledReason: text('disabled_reason'),
    failingSince: integer('failing_since'),
    createdBy: text('created_by'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_enabled').on(t.enabled)],
)

// Every delivery attempt series of one event to one endpoint; the unique key fires each event once.
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'retrying', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastResponseStatus: integer('last_response_status'),
    lastError: text('last_error'),
    nextAttemptAt: integer('next_attempt_at'),
    deliveredAt: integer('delivered_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event').on(t.endpointId, t.eventId),
    index('webhook_deliveries_endpoint_created').on(t.endpointId, t.createdAt),
  ],
)

// A place where a community gathers (a Discord channel, a Telegram group, supergroup or channel,
// or a private chat) that takes contest announcements with its own filters, set up from the place
// itself by one of its administrators; an account may claim it and manage it from the web app.
export const communityDestinations = sqliteTable(
  'community_destinations',
  {
    id: text('id').primaryKey(),
    // The chat service: 'telegram' or 'discord'.
    channel: text('channel', { enum: ['telegram', 'discord'] }).notNull(),
    // Telegram's chat id, or Discord's channel id.
    chatId: text('chat_id').notNull(),
    // Telegram: the forum topic (message_thread_id) of a supergroup with topics, '' for the whole
    // chat; each topic of a group is a destination of its own.
    threadId: text('thread_id').notNull().default(''),
    // Telegram: the topic's name, as its creation message gave it.
    threadTitle: text('thread_title'),
    // Discord's server (guild), to list a server's destinations.
    guildId: text('guild_id'),
    title: text('title').notNull().default(''),
    // Discord: the role each announcement mentions (and nothing else).
    roleId: text('role_id'),
    platforms: text('platforms', { mode: 'json' }).$type<string[]>().notNull(),
    contestTypes: text('contest_types', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    // Minutes before the start, one announcement each.
    leadTimes: text('lead_times', { mode: 'json' })
      .$type<number[]>()
      .notNull()
      .default(sql`'[60]'`),
    includeWords: text('include_words', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    excludeWords: text('exclude_words', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    minDuration: integer('min_duration'),
    // Each announcement is deleted soon after its contest ends (community_message_changes).
    cleanup: integer('cleanup', { mode: 'boolean' }).notNull().default(false),
    // Discord: each contest announced also becomes a guild scheduled event (community_events).
    events: integer('events', { mode: 'boolean' }).notNull().default(false),
    // Discord: when the server refused the events (no Manage Events), and the channel was told so
    // once; cleared when events are turned on again.
    eventsRefusedAt: integer('events_refused_at'),
    // Discord: the role each platform or contest type pings, and which members take with a button.
    roles: text('roles', { mode: 'json' })
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'`),
    // After each contest of its platforms whose results are published, one post of its members'
    // ranks and ratings (community_rank_posts; members in community_members).
    rankUpdates: integer('rank_updates', { mode: 'boolean' }).notNull().default(false),
    // The account that claimed it, if any.
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    // Set when the chat service said the bot can never post there again, with its words.
    deadAt: integer('dead_at'),
    deadReason: text('dead_reason'),
    // When the owner was told it is dead: once per death.
    ownerToldAt: integer('owner_told_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // Named as before: a chat's topics are places of their own.
    uniqueIndex('community_destinations_chat').on(t.channel, t.chatId, t.threadId),
    index('community_destinations_owner').on(t.ownerId),
  ],
)

// One announcement of a contest at one lead time in one community destination: the unique key
// makes it once, whatever runs or redeliveries race; sent through the notifications queue with the
// retries of personal reminders.
export const communityAnnouncements = sqliteTable(
  'community_announcements',
  {
    id: text('id').primaryKey(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => communityDestinations.id, { onDelete: 'cascade' }),
    contestId: text('contest_id').references(() => contests.id, { onDelete: 'set null' }),
    // `<start time>:<lead minutes>`, as reminders: a rescheduled contest is announced again.
    dedupeKey: text('dedupe_key').notNull(),
    leadMinutes: integer('lead_minutes').notNull(),
    dueAt: integer('due_at').notNull(),
    ...claimedRowColumns('SENT'),
    providerMessageId: text('provider_message_id'),
    sentAt: integer('sent_at'),
  },
  (t) => [
    uniqueIndex('community_announcements_once').on(t.destinationId, t.contestId, t.dedupeKey),
    index('community_announcements_unqueued')
      .on(t.createdAt)
      .where(sql`queued_at IS NULL`),
    // The messages posted lately, which each run compares with their contests (changes.ts).
    index('community_announcements_posted')
      .on(t.sentAt)
      .where(sql`status = 'SENT' AND provider_message_id IS NOT NULL`),
  ],
)

// One Discord scheduled event of a contest in a destination's server, made once (the unique key)
// however runs race, moved with its contest and deleted when the contest is cancelled: start_time
// and end_time are what the event on Discord holds, so a contest whose times differ is due a
// change; claimed, retried and paced as announcements are.
export const communityEvents = sqliteTable(
  'community_events',
  {
    id: text('id').primaryKey(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => communityDestinations.id, { onDelete: 'cascade' }),
    contestId: text('contest_id').references(() => contests.id, { onDelete: 'set null' }),
    // Discord's id of the event, once it is made.
    eventId: text('event_id'),
    startTime: integer('start_time'),
    endTime: integer('end_time'),
    deletedAt: integer('deleted_at'),
    // PENDING: a change is due; DONE: Discord holds what the contest says.
    ...claimedRowColumns('DONE'),
  },
  (t) => [
    uniqueIndex('community_events_once').on(t.destinationId, t.contestId),
    index('community_events_status').on(t.status, t.endTime),
  ],
)

// The rank post of one contest's results in one destination that turned rank updates on: the
// unique key makes it once, whatever runs, retried results messages or redeliveries race; claimed,
// retried and paced as announcements are.
export const communityRankPosts = sqliteTable(
  'community_rank_posts',
  {
    id: text('id').primaryKey(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => communityDestinations.id, { onDelete: 'cascade' }),
    contestId: text('contest_id')
      .notNull()
      .references(() => contests.id, { onDelete: 'cascade' }),
    ...claimedRowColumns('SENT'),
    providerMessageId: text('provider_message_id'),
    sentAt: integer('sent_at'),
  },
  (t) => [
    uniqueIndex('community_rank_posts_once').on(t.destinationId, t.contestId),
    index('community_rank_posts_unqueued')
      .on(t.contestId)
      .where(sql`queued_at IS NULL`),
  ],
)

// A change to a message an announcement posted: edited when its contest moved or was cancelled
// (`<what it says now>#<edits before it>`, so each change is made once however runs race, and a
// contest moved back is edited again), deleted after the contest ended where the destination
// asked for it ('delete'). Claimed, paced and retried as announcements are.
export const communityMessageChanges = sqliteTable(
  'community_message_changes',
  {
    id: text('id').primaryKey(),
    announcementId: text('announcement_id')
      .notNull()
      .references(() => communityAnnouncements.id, { onDelete: 'cascade' }),
    changeKey: text('change_key').notNull(),
    kind: text('kind', { enum: ['edit', 'delete'] }).notNull(),
    // The start the edited message states; NULL: it says the contest is cancelled.
    startTime: integer('start_time'),
    dueAt: integer('due_at').notNull(),
    ...claimedRowColumns('DONE'),
  },
  (t) => [
    uniqueIndex('community_message_changes_once').on(t.announcementId, t.changeKey),
    index('community_message_changes_unqueued')
      .on(t.createdAt)
      .where(sql`queued_at IS NULL`),
  ],
)

export type CommunityDestinationRow = typeof communityDestinations.$inferSelect
export type CommunityAnnouncementRow = typeof communityAnnouncements.$inferSelect

// Discord interactions already answered, by Discord's interaction id: a signed request posted again
// within its 5 minutes is refused instead of run twice. Kept until its signature's timestamp is
// stale (expires_at), then removed by the daily cleanup.
export const discordInteractions = sqliteTable(
  'discord_interactions',
  {
    id: text('id').primaryKey(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('discord_interactions_expires').on(t.expiresAt)],
)

// A handle on a judge that an account linked (results/): its own (OWN), proven by a token the
// account placed in a public profile field, or one it follows as a friend (FRIEND, never proven).
// A proven own handle belongs to one account only; an unproven one holds nothing but its token.
export const judgeHandles = sqliteTable(
  'judge_handles',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    // As the judge spells it (from its profile once proven); handle_key is its lower case, which
    // every lookup and the results join use.
    handle: text('handle').notNull(),
    handleKey: text('handle_key').notNull(),
    relation: text('relation', { enum: ['OWN', 'FRIEND'] }).notNull(),
    state: text('state', { enum: ['UNPROVEN', 'PROVEN'] })
      .notNull()
      .default('UNPROVEN'),
    // What the account places in the profile field. Not a secret (it is published there), so kept
    // as it is, to be shown again; it proves only until proof_expires_at.
    proofToken: text('proof_token'),
    proofExpiresAt: integer('proof_expires_at'),
    // The proof by a submission (D164), where the judge offers it: the problem the account is to
    // submit a compilation error to ("4/A": contestId and index), and the minutes it has to; a new
    // challenge replaces the old, and a proof clears it.
    challengeProblem: text('challenge_problem'),
    challengeIssuedAt: integer('challenge_issued_at'),
    challengeExpiresAt: integer('challenge_expires_at'),
    provenAt: integer('proven_at'),
    // The newest rating the judge reported, to tell a change of title.
    rating: integer('rating'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('judge_handles_user').on(t.userId, t.relation, t.platform, t.handleKey),
    // One account holds a proven handle.
    uniqueIndex('judge_handles_proven')
      .on(t.platform, t.handleKey)
      .where(sql`relation = 'OWN' AND state = 'PROVEN'`),
    // The results join: a contest's rows by (platform, handle) to whoever linked them.
    index('judge_handles_platform_handle').on(t.platform, t.handleKey),
  ],
)

// A member of a community destination and the judge handle whose results its rank posts show
// (results/): registered from the chat with the bot, proven by a token in the handle's public
// profile as on the web, or by the member's linked account that holds the handle proven
// (judge_handle_id). Shown only in this destination's posts.
export const communityMembers = sqliteTable(
  'community_members',
  {
    id: text('id').primaryKey(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => communityDestinations.id, { onDelete: 'cascade' }),
    // The chat service's id of the member (a Discord user, a Telegram user).
    memberId: text('member_id').notNull(),
    // The account the member's chat identity is linked to, when it is: its deletion removes the row.
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    // The account's proven handle the row stands on, when proven that way.
    judgeHandleId: text('judge_handle_id').references(() => judgeHandles.id, {
      onDelete: 'cascade',
    }),
    platform: text('platform').notNull(),
    handle: text('handle').notNull(),
    handleKey: text('handle_key').notNull(),
    state: text('state', { enum: ['UNPROVEN', 'PROVEN'] })
      .notNull()
      .default('UNPROVEN'),
    proofToken: text('proof_token'),
    proofExpiresAt: integer('proof_expires_at'),
    provenAt: integer('proven_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // One handle per judge per member in a destination.
    uniqueIndex('community_members_member').on(t.destinationId, t.memberId, t.platform),
    // The results join, and a handle's rows across destinations.
    index('community_members_handle').on(t.platform, t.handleKey),
    index('community_members_user').on(t.userId),
  ],
)

// Which result alerts an account takes (results/): its own results on by default, its friends'
// off. No row: the defaults.
export const resultPreferences = sqliteTable('result_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ownResults: integer('own_results', { mode: 'boolean' }).notNull().default(true),
  friendResults: integer('friend_results', { mode: 'boolean' }).notNull().default(false),
  updatedAt: integer('updated_at').notNull(),
})

// An ended contest whose results the service waits for (results/): asked of its judge on a
// backoff until ratings (rated) or final standings (unrated) are published, or given up.
export const resultChecks = sqliteTable(
  'result_checks',
  {
    contestId: text('contest_id')
      .primaryKey()
      .references(() => contests.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    state: text('state', { enum: ['WAITING', 'PUBLISHED', 'GAVE_UP'] })
      .notNull()
      .default('WAITING'),
    attempts: integer('attempts').notNull().default(0),
    nextCheckAt: integer('next_check_at').notNull(),
    // A consumer holds the check until then, so a duplicate queue message does not ask twice.
    claimedUntil: integer('claimed_until'),
    rated: integer('rated', { mode: 'boolean' }),
    participants: integer('participants'),
    // Of the published rows, to see a rollback or re-calculation at a later check.
    resultsDigest: text('results_digest'),
    publishedAt: integer('published_at'),
    error: text('error'),
    // Results asked per handle (LeetCode): the last handle key the walk asked, so whichever
    // message goes on with it (a duplicate, the sweep's after a lost one) starts after it, and no
    // handle is asked twice for the contest.
    walkAfter: text('walk_after'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('result_checks_due').on(t.state, t.nextCheckAt)],
)

// A linked handle's result in a contest (results/), as its judge published it: only handles some
// account linked are stored, not every participant.
export const contestResults = sqliteTable(
  'contest_results',
  {
    contestId: text('contest_id')
      .notNull()
      .references(() => contests.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    handleKey: text('handle_key').notNull(),
    handle: text('handle').notNull(),
    rank: integer('rank'),
    solved: integer('solved'),
    oldRating: integer('old_rating'),
    newRating: integer('new_rating'),
    performance: integer('performance'),
    rated: integer('rated', { mode: 'boolean' }).notNull(),
    // The delta the alerts last told; a re-calculation that changes it is told once more.
    toldDelta: integer('told_delta'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contestId, t.handleKey] }),
    // A handle's recent results (GET /users/results).
    index('contest_results_handle').on(t.platform, t.handleKey, t.updatedAt),
  ],
)
