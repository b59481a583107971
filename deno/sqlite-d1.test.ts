// The node:sqlite D1 shim driven as the app drives D1: real migrations, drizzle, raw statements.
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { createDb } from '../src/db/client.ts'
import { contests, users } from '../src/db/schema.ts'
import { searchContests } from '../src/contests/queries.ts'
import { searchInMemory } from '../src/contests/search-memory.ts'
import { tokenizerDifferences } from '../test/helpers/fts-tokens.ts'
import { insertContests } from '../src/contests/writes.ts'
import { isDuplicateEmailError } from '../src/users/queries.ts'
import { applyMigrations } from './migrations.ts'
import { openSqliteD1, type SqliteD1Database } from './sqlite-d1.ts'

const MIGRATIONS = new URL('../migrations', import.meta.url).pathname
const NOW = Date.UTC(2026, 0, 1)

/** A fresh migrated database in a temp dir, removed after fn. */
async function withDb(fn: (d1: SqliteD1Database, file: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: 'sqlite-d1-' })
  const file = `${dir}/db.sqlite`
  const d1 = openSqliteD1(file)
  try {
    await applyMigrations(d1, MIGRATIONS)
    await fn(d1, file)
  } finally {
    d1.close()
    await Deno.remove(dir, { recursive: true })
  }
}

function userRow(id: string, email: string) {
  return {
    id,
    email,
    name: 'Ada',
    passwordHash: 'hash',
    platforms: ['codeforces'],
    contestTypes: ['CF'],
    notifyPush: true,
    createdAt: NOW,
    updatedAt: NOW,
  }
}

Deno.test('migrations apply every file once, recorded by file name', async () => {
  await withDb(async (d1) => {
    const files = [...Deno.readDirSync(MIGRATIONS)]
      .filter((e) => e.isFile && e.name.endsWith('.sql'))
      .map((e) => e.name)
      .sort()
    const { results } = await d1
      .prepare('SELECT name FROM d1_migrations ORDER BY id')
      .all<{ name: string }>()
    assert.deepEqual(
      results.map((r) => r.name),
      files,
    )
    assert.deepEqual(await applyMigrations(d1, MIGRATIONS), [])
  })
})

Deno.test('a failing migration file leaves neither its changes nor its record', async () => {
  await withDb(async (d1) => {
    const dir = await Deno.makeTempDir()
    try {
      await Deno.writeTextFile(
        `${dir}/0001_bad.sql`,
        'CREATE TABLE half (id integer);\n--> statement-breakpoint\nINSERT INTO nowhere VALUES (1);',
      )
      await assert.rejects(
        applyMigrations(d1, dir),
        /migration 0001_bad\.sql failed: no such table/,
      )
      assert.equal(
        await d1.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").first('n'),
        0,
      )
      assert.equal(
        await d1
          .prepare("SELECT count(*) AS n FROM d1_migrations WHERE name = '0001_bad.sql'")
          .first('n'),
        0,
      )
    } finally {
      await Deno.remove(dir, { recursive: true })
    }
  })
})

Deno.test('drizzle inserts a user and reads it back with booleans and json mapped', async () => {
  await withDb(async (d1) => {
    const db = createDb(d1)
    await db.insert(users).values(userRow('u1', 'ada@example.com'))
    const user = await db.select().from(users).where(eq(users.id, 'u1')).get()
    assert.equal(user?.email, 'ada@example.com')
    assert.equal(user?.isActive, true)
    assert.equal(user?.notifyPush, true)
    assert.deepEqual(user?.platforms, ['codeforces'])
    const found = await db.query.users.findFirst({ where: eq(users.email, 'ada@example.com') })
    assert.equal(found?.id, 'u1')
  })
})

Deno.test('booleans bind as 0/1 and undefined as null', async () => {
  await withDb(async (d1) => {
    const row = await d1
      .prepare('SELECT ?1 AS t, ?2 AS f, ?3 AS u')
      .bind(true, false, undefined)
      .first()
    assert.deepEqual(row, { t: 1, f: 0, u: null })
  })
})

Deno.test('a batch failing on its second statement writes nothing', async () => {
  await withDb(async (d1) => {
    const db = createDb(d1)
    await assert.rejects(
      db.batch([
        db.insert(users).values(userRow('u1', 'ada@example.com')),
        db.insert(users).values(userRow('u1', 'other@example.com')),
      ]),
      /UNIQUE constraint failed: users\.id/,
    )
    assert.equal(await d1.prepare('SELECT count(*) AS n FROM users').first('n'), 0)
  })
})

Deno.test('a batch returns each statement result in order, for drizzle to map', async () => {
  await withDb(async (d1) => {
    const db = createDb(d1)
    const [, inserted, [row], rows] = await db.batch([
      db.insert(users).values(userRow('u1', 'ada@example.com')),
      db.insert(users).values(userRow('u2', 'bob@example.com')).returning({ id: users.id }),
      db.select({ email: users.email }).from(users).where(eq(users.id, 'u1')),
      db.select({ id: users.id }).from(users).orderBy(users.id),
    ])
    assert.deepEqual(inserted, [{ id: 'u2' }])
    assert.deepEqual(row, { email: 'ada@example.com' })
    assert.deepEqual(rows, [{ id: 'u1' }, { id: 'u2' }])
  })
})

Deno.test('a duplicate email fails with the UNIQUE text the app recognises', async () => {
  await withDb(async (d1) => {
    const db = createDb(d1)
    await db.insert(users).values(userRow('u1', 'ada@example.com'))
    const err = await db
      .insert(users)
      .values(userRow('u2', 'ada@example.com'))
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    assert.ok(isDuplicateEmailError(err))
    const raw = await d1
      .prepare(
        'INSERT INTO users (id, email, name, password_hash, platforms, contest_types, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .bind('u3', 'ada@example.com', 'A', 'h', '[]', '[]', NOW, NOW)
      .run()
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    assert.match((raw as Error).message, /UNIQUE constraint failed: users\.email/)
  })
})

Deno.test('first() gives the first row, one column of it, or null', async () => {
  await withDb(async (d1) => {
    const stmt = d1.prepare(
      'SELECT value, value * 2 AS twice FROM (SELECT 1 AS value UNION ALL SELECT 2) ORDER BY value',
    )
    assert.deepEqual(await stmt.first(), { value: 1, twice: 2 })
    assert.equal(await stmt.first('twice'), 2)
    assert.equal(await d1.prepare('SELECT 1 AS x WHERE 0').first(), null)
    await assert.rejects(stmt.first('missing'), /D1_COLUMN_NOTFOUND/)
  })
})

Deno.test('raw() gives arrays, with the column names first when asked', async () => {
  await withDb(async (d1) => {
    const stmt = d1.prepare('SELECT ?1 AS a, ?2 AS b')
    assert.deepEqual(await stmt.bind('x', 2).raw(), [['x', 2]])
    assert.deepEqual(await stmt.bind('y', 3).raw({ columnNames: true }), [
      ['a', 'b'],
      ['y', 3],
    ])
  })
})

Deno.test('run() reports changes and the last row id', async () => {
  await withDb(async (d1) => {
    await d1.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t (v) VALUES (1)')
    const result = await d1.prepare('INSERT INTO t (v) VALUES (?), (?)').bind('a', 'b').run()
    assert.equal(result.success, true)
    assert.equal(result.meta.changes, 2)
    assert.equal(result.meta.last_row_id, 3)
    const all = await d1.prepare('SELECT v FROM t ORDER BY id').all()
    assert.deepEqual(all.results, [{ v: '1' }, { v: 'a' }, { v: 'b' }])
    assert.equal(Object.getPrototypeOf(all.results[0]), Object.prototype)
  })
})

Deno.test('blobs bind from bytes and come back as byte arrays, as D1 returns them', async () => {
  await withDb(async (d1) => {
    const bytes = new Uint8Array([0, 1, 255])
    assert.deepEqual(await d1.prepare('SELECT ?1 AS b').bind(bytes).first('b'), [0, 1, 255])
    assert.deepEqual(await d1.prepare('SELECT ?1 AS b').bind(bytes.buffer).first('b'), [0, 1, 255])
  })
})

Deno.test('foreign keys are enforced and the file is in WAL mode', async () => {
  await withDb(async (d1) => {
    assert.equal(await d1.prepare('PRAGMA foreign_keys').first('foreign_keys'), 1)
    assert.equal(await d1.prepare('PRAGMA journal_mode').first('journal_mode'), 'wal')
    await assert.rejects(
      d1
        .prepare("INSERT INTO user_platforms (user_id, platform) VALUES ('nobody', 'atcoder')")
        .run(),
      /FOREIGN KEY constraint failed/,
    )
  })
})

Deno.test('the app searches contests through FTS5 ranked by bm25', async () => {
  await withDb(async (d1) => {
    const db = createDb(d1)
    const base = {
      platform: 'codeforces',
      type: 'CF',
      startTime: NOW + 3_600_000,
      endTime: NOW + 7_200_000,
    } as const
    await insertContests(
      db,
      [
        { ...base, platformId: '1', name: 'Educational Round', description: 'graph problems' },
        { ...base, platformId: '2', name: 'Graph Masters Cup', description: 'hard' },
        { ...base, platformId: '3', name: 'Div 2 Round', description: 'greedy' },
        { ...base, platformId: '4', name: 'Graph archive', isActive: false },
        { ...base, platformId: '5', name: 'Global Round' },
      ],
      NOW,
    )
    assert.equal(await d1.prepare('SELECT count(*) AS n FROM contests').first('n'), 5)
    const found = await searchContests(db, 'graph')
    // A name hit outranks a description hit; the inactive contest is left out.
    assert.deepEqual(
      found.map((c) => c.platformId),
      ['2', '1'],
    )
    assert.equal(found[0].isActive, true)
    assert.deepEqual(
      (await searchContests(db, 'glob')).map((c) => c.name),
      ['Global Round'],
    )
    await db.update(contests).set({ name: 'Tree Cup' }).where(eq(contests.platformId, '2'))
    assert.deepEqual(
      (await searchContests(db, 'graph')).map((c) => c.platformId),
      ['1'],
    )
  })
})

Deno.test(
  'a raw batch returns each result in order, with the changes of a RETURNING write',
  async () => {
    await withDb(async (d1) => {
      await d1.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
      const [inserted, selected] = await d1.batch([
        d1.prepare('INSERT INTO t (v) VALUES (?1), (?1) RETURNING id').bind('a'),
        d1.prepare('SELECT count(*) AS n FROM t'),
      ])
      assert.deepEqual(inserted.results, [{ id: 1 }, { id: 2 }])
      assert.equal(inserted.meta.changes, 2)
      assert.equal(inserted.meta.last_row_id, 2)
      assert.deepEqual(selected.results, [{ n: 2 }])
    })
  },
)

Deno.test(
  'the search tokenizer makes the tokens node:sqlite’s FTS5 makes of what it covers',
  async () => {
    await withDb(async (d1) => {
      const { covered, differing } = await tokenizerDifferences(d1)
      assert.ok(covered > 30_000)
      assert.deepEqual(differing, [])
    })
  },
)

Deno.test('a search from memory answers as the SQL search does', async () => {
  await withDb(async (d1) => {
    const db = createDb(d1)
    const names = ['Graph Cup', 'Global Round', 'Graph Graph Round', 'École Round', 'Round']
    await insertContests(
      db,
      names.map((name, i) => ({
        platform: 'codeforces',
        platformId: String(i),
        name,
        description: i % 2 ? 'graph problems' : undefined,
        type: 'CF',
        startTime: NOW + (i % 3) * 3_600_000,
        endTime: NOW + 7_200_000,
      })),
      NOW,
    )
    for (const q of ['graph', 'round', 'g r', 'ecole', 'problems graph', 'none']) {
      const fromMemory = await searchInMemory(db, q, 'v1', 300_000, NOW)
      assert.deepEqual(fromMemory, await searchContests(db, q), q)
    }
  })
})
