// A D1Database-shaped binding over node:sqlite, so Deno can hand the app what a Worker's D1 binding gives it.
// @ts-ignore: the @types/node in node_modules (v20) has no node:sqlite; its used shape is below.
import * as nodeSqlite from 'node:sqlite'

type SQLInputValue = null | number | bigint | string | Uint8Array

interface StatementSync {
  columns(): { name: string }[]
  run(...params: SQLInputValue[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  all(...params: SQLInputValue[]): unknown[]
  get(...params: SQLInputValue[]): unknown
  setReturnArrays(enabled: boolean): void
}

interface DatabaseSync {
  readonly isTransaction: boolean
  exec(sql: string): void
  prepare(sql: string): StatementSync
  close(): void
}

const { DatabaseSync } = nodeSqlite as unknown as {
  DatabaseSync: new (path: string) => DatabaseSync
}

type Row = Record<string, unknown>

interface Outcome {
  columns: string[]
  rows: unknown[][]
  changes: number
  lastRowId: number
  duration: number
}

// Compiled statements are kept per SQL text; the app runs a bounded set of statements.
const CACHE_LIMIT = 500
const RETURNING = /\breturning\b/i

/** D1 binds only these; booleans become 0/1 and undefined null, as D1 does. */
function toSqlite(value: unknown, index: number): SQLInputValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') {
    return value
  }
  if (value instanceof Uint8Array) return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  }
  if (Array.isArray(value) && value.every((b) => typeof b === 'number')) {
    return Uint8Array.from(value)
  }
  throw new TypeError(
    `D1_TYPE_ERROR: Type '${typeof value}' not supported for value '${String(value)}' at parameter ${index + 1}`,
  )
}

/** D1 hands blobs back as arrays of byte values; everything else passes through. */
function fromSqlite(value: unknown): unknown {
  return value instanceof Uint8Array ? Array.from(value) : value
}

function toObjects(columns: string[], rows: unknown[][]): Row[] {
  return rows.map((values) => {
    const row: Row = {}
    for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i]
    return row
  })
}

function result(outcome: Outcome, results: unknown[]): D1Result<never> {
  return {
    success: true,
    results: results as never[],
    meta: {
      duration: outcome.duration,
      size_after: 0,
      rows_read: outcome.rows.length,
      rows_written: outcome.changes,
      last_row_id: outcome.lastRowId,
      changed_db: outcome.changes > 0,
      changes: outcome.changes,
      served_by: 'node:sqlite',
    },
  }
}

class SqliteD1 {
  readonly #db: DatabaseSync
  readonly #cache = new Map<string, StatementSync>()

  constructor(path: string) {
    this.#db = new DatabaseSync(path)
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000')
  }

  #statement(sql: string): StatementSync {
    let stmt = this.#cache.get(sql)
    if (stmt) return stmt
    stmt = this.#db.prepare(sql)
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.delete(this.#cache.keys().next().value!)
    this.#cache.set(sql, stmt)
    return stmt
  }

  /** Runs one statement synchronously; rows come back as arrays with their column names. */
  execute(sql: string, params: SQLInputValue[]): Outcome {
    const started = performance.now()
    const stmt = this.#statement(sql)
    const columns = stmt.columns().map((c) => c.name)
    if (columns.length === 0) {
      const { changes, lastInsertRowid } = stmt.run(...params)
      return {
        columns,
        rows: [],
        changes: Number(changes),
        lastRowId: Number(lastInsertRowid),
        duration: performance.now() - started,
      }
    }
    stmt.setReturnArrays(true)
    // Only a statement with RETURNING both yields rows and writes; counting costs two queries.
    const writes = RETURNING.test(sql)
    const before = writes ? this.#scalar('SELECT total_changes()') : 0
    const rows = (stmt.all(...params) as unknown as unknown[][]).map((r) => r.map(fromSqlite))
    const changes = writes ? this.#scalar('SELECT total_changes()') - before : 0
    return {
      columns,
      rows,
      changes,
      lastRowId: changes > 0 ? this.#scalar('SELECT last_insert_rowid()') : 0,
      duration: performance.now() - started,
    }
  }

  #scalar(sql: string): number {
    const stmt = this.#statement(sql)
    stmt.setReturnArrays(true)
    const row = stmt.get() as unknown as unknown[]
    return Number(row[0])
  }

  /** Runs all statements or none: D1's batch is one implicit transaction. */
  batch(statements: { sql: string; params: SQLInputValue[] }[]): Outcome[] {
    const nested = this.#db.isTransaction
    this.#db.exec(nested ? 'SAVEPOINT d1_batch' : 'BEGIN')
    try {
      const outcomes = statements.map((s) => this.execute(s.sql, s.params))
      this.#db.exec(nested ? 'RELEASE d1_batch' : 'COMMIT')
      return outcomes
    } catch (err) {
      this.#db.exec(nested ? 'ROLLBACK TO d1_batch; RELEASE d1_batch' : 'ROLLBACK')
      throw err
    }
  }

  exec(sql: string): void {
    this.#db.exec(sql)
  }

  close(): void {
    this.#cache.clear()
    this.#db.close()
  }
}

class SqliteD1Statement {
  readonly #conn: SqliteD1
  readonly sql: string
  readonly params: SQLInputValue[]

  constructor(conn: SqliteD1, sql: string, params: SQLInputValue[] = []) {
    this.#conn = conn
    this.sql = sql
    this.params = params
  }

  /** Returns a new bound statement, as D1 does; the unbound one stays reusable. */
  bind(...values: unknown[]): SqliteD1Statement {
    return new SqliteD1Statement(this.#conn, this.sql, values.map(toSqlite))
  }

  #execute(): Outcome {
    return this.#conn.execute(this.sql, this.params)
  }

  async first<T = unknown>(column?: string): Promise<T | null> {
    const outcome = this.#execute()
    const [row] = toObjects(outcome.columns, outcome.rows.slice(0, 1))
    if (!row) return null
    if (column === undefined) return row as T
    if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`)
    return row[column] as T
  }

  async all<T = Row>(): Promise<D1Result<T>> {
    const outcome = this.#execute()
    return result(outcome, toObjects(outcome.columns, outcome.rows)) as D1Result<T>
  }

  /** D1's run() returns the same result as all(). */
  run<T = Row>(): Promise<D1Result<T>> {
    return this.all<T>()
  }

  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    const outcome = this.#execute()
    const rows = outcome.rows as T[]
    return options?.columnNames ? [outcome.columns as T, ...rows] : rows
  }
}

export interface SqliteD1Database extends D1Database {
  /** Closes the underlying SQLite connection. */
  close(): void
}

/** Opens (creating if absent) the SQLite file at path as a D1 binding. */
export function openSqliteD1(path: string): SqliteD1Database {
  const conn = new SqliteD1(path)
  const prepare = (sql: string) => new SqliteD1Statement(conn, sql)
  const batch = async <T = unknown>(statements: D1PreparedStatement[]) => {
    const bound = statements.map((s) => {
      if (!(s instanceof SqliteD1Statement))
        throw new TypeError('batch() takes statements of this database')
      return s
    })
    const outcomes = conn.batch(bound)
    return outcomes.map((o) => result(o, toObjects(o.columns, o.rows))) as D1Result<T>[]
  }
  const db = {
    prepare: prepare as unknown as (sql: string) => D1PreparedStatement,
    batch,
    async exec(sql: string): Promise<D1ExecResult> {
      const started = performance.now()
      conn.exec(sql)
      return { count: 1, duration: performance.now() - started }
    },
    withSession() {
      return { prepare: db.prepare, batch, getBookmark: () => null }
    },
    dump(): Promise<ArrayBuffer> {
      return Promise.reject(new Error('dump() is not supported: copy the SQLite file instead'))
    },
    close: () => conn.close(),
  }
  return db
}
