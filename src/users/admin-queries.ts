// Reads of user accounts for the admin area (admin/) beyond the users feature's own: a searchable
// page and the counts of the statistics. Soft-deleted accounts are left out, as everywhere.
import { and, count, desc, gt, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { notDeleted } from './live.ts'

/** `text` as a LIKE pattern matching it anywhere, its own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
}

// SQLite's LIKE ignores the case of ASCII letters; emails are stored lower-cased already.
const likeIgnoringCase = (column: typeof users.email | typeof users.name, pattern: string): SQL =>
  sql`${column} LIKE ${pattern} ESCAPE '\\'`

/** Newest first, the id breaking ties so that pages never overlap. */
export async function searchUsers(
  db: Db,
  page: { limit: number; offset: number; search?: string },
) {
  const pattern = page.search ? containsPattern(page.search) : undefined
  const where = and(
    notDeleted(),
    pattern
      ? or(likeIgnoringCase(users.email, pattern), likeIgnoringCase(users.name, pattern))
      : undefined,
  )
  const [[{ total }], rows] = await db.batch([
    db.select({ total: count() }).from(users).where(where),
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(page.limit)
      .offset(page.offset),
  ])
  return { rows, total }
}

/** The user counts of the admin statistics, as statements to batch with the others. */
export function userCountStatements(db: Db, since: number) {
  return [
    db.select({ n: count() }).from(users).where(notDeleted()),
    db
      .select({ n: count() })
      .from(users)
      .where(and(notDeleted(), gt(users.createdAt, since))),
  ] as const
}

/** The addresses of live, active admins with a proven address: who hears of platform incidents. */
export async function adminAddresses(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        notDeleted(),
        sql`${users.role} = 'admin'`,
        sql`${users.isActive} = 1`,
        sql`${users.emailVerifiedAt} IS NOT NULL`,
      ),
    )
    .limit(50)
  return rows.map((r) => r.email)
}
