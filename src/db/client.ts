// The drizzle client over a D1 binding; built per request because bindings arrive per request.
import { drizzle } from 'drizzle-orm/d1'
import * as schema from './schema.ts'

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema })
}

/** Drizzle over D1, with the raw binding at `$client` for statements drizzle cannot build. */
export type Db = ReturnType<typeof createDb>
