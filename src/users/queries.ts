// Reads and writes of user accounts: plain functions of (db, input, now) over D1.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Db } from '../db/client.ts'
import { userPlatforms, users, type UserRow } from '../db/schema.ts'
import { isUniqueViolation } from '../db/unique-violation.ts'
import type { Role } from '../lib/jwt.ts'
import { WEBHOOK_CHANNELS, type Channel } from '../channels/registry.ts'
import {
  BLOCKABLE_CHANNELS,
  clearBlocksStatement,
  listChannelBlocksStatement,
} from './channel-blocks.ts'
import { liveUserById, notDeleted } from './live.ts'
import { requireProvenAddress } from './destinations.ts'
import { phoneNumberColumns } from './phone.ts'
import { DEFAULT_PREFERENCES, preferenceColumns, type Platform } from './preferences.ts'
import type { ProfileUpdate } from './schemas.ts'

type Statement = BatchItem<'sqlite'>

export interface NewUser {
  id: string
  email: string
  name: string
  phoneNumber?: string
  passwordHash: string
  role: Role
  /** A checked IANA zone (the web sign-up's, from the browser); the default otherwise. */
  timezone?: string
}

/** Mirrors `platforms` into user_platforms; only rows of a live user are written. */
function platformRows(db: Db, userId: string, platforms: Platform[]): Statement[] {
  return platforms.map((platform) =>
    db.insert(userPlatforms).select(
      db
        .select({ userId: users.id, platform: sql<string>`${platform}`.as('platform') })
        .from(users)
        .where(liveUserById(userId)),
    ),
  )
}

/** The statements that create an account with default preferences; run them in one batch. */
export function createUserStatements(db: Db, user: NewUser, now: number): Statement[] {
  const prefs = DEFAULT_PREFERENCES
  return [
    db.insert(users).values({
      ...user,
      platforms: prefs.platforms,
      alertFrequency: prefs.alertFrequency,
      contestTypes: prefs.contestTypes,
      notifyWhatsapp: prefs.notificationChannels.whatsapp,
      notifyEmail: prefs.notificationChannels.email,
      notifyPush: prefs.notificationChannels.push,
      notifyBefore: prefs.notifyBefore,
      leadTimes: prefs.leadTimes,
      timezone: user.timezone ?? prefs.timezone,
      createdAt: now,
      updatedAt: now,
    }),
    ...platformRows(db, user.id, prefs.platforms),
  ]
}

export function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.select().from(users).where(liveUserById(id)).get()
}

/** Whether a users row has the id, soft-deleted or not (a hard deletion removes it). */
export async function userRowExists(db: Db, id: string): Promise<boolean> {
  const row = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).get()
  return row !== undefined
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.email, email), notDeleted()))
    .get()
}

/** Whether any account, soft-deleted or not, has the email (emails are unique across both). */
export async function isEmailTaken(db: Db, email: string): Promise<boolean> {
  const taken = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()
  return taken !== undefined
}

/** Whether a write failed on the unique email index: another account took the address meanwhile. */
export const isDuplicateEmailError = (error: unknown) => isUniqueViolation(error, 'users.email')

/** The user with the channels the service turned off for them (the profile's channelStatus). */
export async function findUserWithBlocks(db: Db, id: string) {
  const [[user], blocks] = await db.batch([
    findUserStatement(db, id),
    listChannelBlocksStatement(db, id),
  ])
  return user ? { user, blocks } : undefined
}

export function findUserStatement(db: Db, id: string) {
  return db.select().from(users).where(liveUserById(id))
}

/**
 * Applies a partial profile update in one batch (all or nothing). Columns not sent are not
 * written, so two concurrent updates of different fields never undo each other.
 */
export async function updateProfile(
  db: Db,
  id: string,
  update: ProfileUpdate,
  now: number,
): Promise<UserRow | undefined> {
  const prefs = update.preferences ?? {}
  const webhookSet = (channel: Channel) =>
    WEBHOOK_CHANNELS.some((m) => m.id === channel && prefs[m.destination.field] != null)
  if (WEBHOOK_CHANNELS.some((m) => webhookSet(m.id))) {
    const user = await findUser(db, id)
    if (user) requireProvenAddress(user)
  }
  const columns = {
    ...(update.name !== undefined && { name: update.name }),
    // A changed number loses its verification in this same statement (users/phone.ts).
    ...(update.phoneNumber !== undefined && phoneNumberColumns(update.phoneNumber || null)),
    ...preferenceColumns(prefs),
    updatedAt: now,
  }
  const statements: Statement[] = [db.update(users).set(columns).where(liveUserById(id))]
  if (prefs.platforms) {
    const liveOwner = db.select({ id: users.id }).from(users).where(liveUserById(id))
    statements.push(db.delete(userPlatforms).where(inArray(userPlatforms.userId, liveOwner)))
    statements.push(...platformRows(db, id, prefs.platforms))
  }
  // Turning a channel on again clears the block the service put on it, in the same batch.
  // A new webhook replaces the one its provider no longer knew, so its block goes as well.
  const turnedOn = BLOCKABLE_CHANNELS.filter(
    (ch) => prefs.notificationChannels?.[ch] || webhookSet(ch),
  )
  if (turnedOn.length > 0) statements.push(clearBlocksStatement(db, id, [...turnedOn]))
  statements.push(findUserStatement(db, id) as Statement)
  const results = await db.batch(statements as [Statement, ...Statement[]])
  return (results.at(-1) as UserRow[])[0]
}

/** Sets the account flag; false when no live user has that id. */
export async function setActive(db: Db, id: string, active: boolean, now: number) {
  const rows = await db
    .update(users)
    .set({ isActive: active, updatedAt: now })
    .where(liveUserById(id))
    .returning({ id: users.id })
  return rows.length > 0
}

/** Newest first; the id breaks ties so that pages never overlap. */
export async function listUsers(db: Db, page: { limit: number; offset: number }) {
  const [[{ total }], rows] = await db.batch([
    db.select({ total: count() }).from(users).where(notDeleted()),
    db
      .select()
      .from(users)
      .where(notDeleted())
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(page.limit)
      .offset(page.offset),
  ])
  return { rows, total }
}

export function recordSignInStatement(db: Db, id: string, now: number) {
  return db.update(users).set({ lastLogin: now }).where(eq(users.id, id))
}

/** How many accounts follow each platform, most followed first (platforms nobody follows absent). */
export async function platformFollowerCounts(
  db: Db,
): Promise<{ platform: string; followers: number }[]> {
  return db
    .select({ platform: userPlatforms.platform, followers: count() })
    .from(userPlatforms)
    .groupBy(userPlatforms.platform)
    .orderBy(desc(count()))
}
