// Gives a test file the state a fresh workerd would: test files share one workerd per vitest worker
// (isolate: false, so the Worker's modules load once), so what one file wrote to D1 and KV is
// removed before the next begins, and the catalogue gets a version no earlier file cached under.
import type { D1Migration } from 'cloudflare:test'
import { bumpCatalogueVersion } from '../../src/contests/catalogue-version.ts'

/** The tables the migrations made and that are still there (D1 keeps tables of its own). */
async function migratedTables(db: D1Database, migrations: D1Migration[]): Promise<string[]> {
  const created = new Set<string>()
  for (const { queries } of migrations) {
    for (const query of queries) {
      const name = /^\s*CREATE TABLE\s+(?:IF NOT EXISTS\s+)?[`"]?(\w+)/i.exec(query)?.[1]
      if (name) created.add(name)
    }
  }
  const { results } = await db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`)
    .all<{ name: string }>()
  return results.map((r) => r.name).filter((name) => created.has(name))
}

async function emptyDatabase(db: D1Database, migrations: D1Migration[]) {
  const tables = await migratedTables(db, migrations)
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

export async function freshState(env: {
  DB: D1Database
  KV: KVNamespace
  TEST_MIGRATIONS: D1Migration[]
}) {
  await emptyDatabase(env.DB, env.TEST_MIGRATIONS)
  await emptyKv(env.KV)
  await bumpCatalogueVersion(env.KV)
}
