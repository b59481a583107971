// Gives a test file the state a fresh workerd would: test files share one workerd per vitest worker
// (isolate: false, so the Worker's modules load once), so what one file wrote to D1 and KV is
// removed before the next begins, and the catalogue gets a version no earlier file cached under.
import { bumpCatalogueVersion } from '../../src/contests/catalogue-version.ts'

/** Every table the migrations made, but the migrations' own record (and SQLite's and D1's). */
async function userTables(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' AND sql NOT LIKE 'CREATE VIRTUAL%'
        AND name NOT LIKE '%_fts_%'`,
    )
    .all<{ name: string }>()
  return results.map((r) => r.name)
}

async function emptyDatabase(db: D1Database) {
  const tables = await userTables(db)
  // One batch is one transaction, so deferred foreign keys let the rows go in any order.
  await db.batch([
    db.prepare('PRAGMA defer_foreign_keys = ON'),
    ...tables.map((t) => db.prepare(`DELETE FROM "${t}"`)),
    // The full-text index follows its content table through triggers; rebuilt to be sure.
    db.prepare(`INSERT INTO contests_fts(contests_fts) VALUES ('rebuild')`),
  ])
}

async function emptyKv(kv: KVNamespace) {
  let cursor: string | undefined
  do {
    const page = await kv.list({ cursor })
    await Promise.all(page.keys.map((k) => kv.delete(k.name)))
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)
}

export async function freshState(env: { DB: D1Database; KV: KVNamespace }) {
  await emptyDatabase(env.DB)
  await emptyKv(env.KV)
  await bumpCatalogueVersion(env.KV)
}
