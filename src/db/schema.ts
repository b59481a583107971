// Drizzle schema of the D1 database; drizzle-kit turns it into the SQL migrations.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

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
