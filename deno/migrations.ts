// Applies migrations/*.sql to a D1-shaped database once each, recorded as wrangler records them.

/** Wrangler's default table: one row per applied file, named by the file name. */
export const MIGRATIONS_TABLE = 'd1_migrations'

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`

/**
 * Applies, in name order, every `.sql` file in dir not yet recorded, each in its own transaction
 * with its record, so a failing file leaves neither its changes nor its record. Returns the names
 * applied now.
 */
export async function applyMigrations(db: D1Database, dir: string): Promise<string[]> {
  await db.exec(CREATE_TABLE)
  const { results } = await db
    .prepare(`SELECT name FROM ${MIGRATIONS_TABLE}`)
    .all<{ name: string }>()
  const done = new Set(results.map((r) => r.name))
  const pending: string[] = []
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith('.sql') && !done.has(entry.name)) {
      pending.push(entry.name)
    }
  }
  pending.sort()
  for (const name of pending) {
    const sql = await Deno.readTextFile(`${dir}/${name}`)
    await db.exec('BEGIN')
    try {
      await db.exec(sql)
      await db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES (?1)`).bind(name).run()
      await db.exec('COMMIT')
    } catch (err) {
      await db.exec('ROLLBACK')
      throw new Error(`migration ${name} failed: ${(err as Error).message}`, { cause: err })
    }
  }
  return pending
}
