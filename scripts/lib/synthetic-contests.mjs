// Deterministic synthetic contests for benchmarks (realistic names, types and times per platform),
// written as SQL and loaded into a fresh state of either runtime.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { wrangler } from './dev-server.mjs'

const TYPES = {
  codeforces: ['CF', 'CF', 'CF', 'ICPC', 'IOI'],
  leetcode: ['WEEKLY', 'BIWEEKLY'],
  codechef: ['STARTERS', 'STARTERS', 'LONG', 'COOK_OFF', 'LUNCH_TIME'],
  atcoder: ['ABC', 'ABC', 'ARC', 'AGC', 'AHC'],
}
const DIFFICULTIES = ['BEGINNER', 'EASY', 'MEDIUM', 'HARD', 'EXPERT', null]
const WORDS = [
  'Round',
  'Educational',
  'Global',
  'Weekly',
  'Biweekly',
  'Starters',
  'Beginner',
  'Regular',
  'Grand',
  'Heuristic',
  'Div. 1',
  'Div. 2',
  'Div. 3',
  'Cup',
  'Challenge',
  'Open',
]

/** Mulberry32: a tiny seeded generator, so every run benchmarks the same catalogue. */
function random(seed) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function* syntheticContests(count, now, seed = 42) {
  const rand = random(seed)
  const pick = (list) => list[Math.floor(rand() * list.length)]
  const platforms = Object.keys(TYPES)
  for (let i = 0; i < count; i++) {
    const platform = platforms[i % platforms.length]
    // Spread over a year around now, mostly in the past as real catalogues are.
    const startTime = Math.round(now + (rand() * 365 - 300) * 86_400_000)
    const durationMinutes = pick([90, 105, 120, 150, 180, 240, 14400])
    const name = `${pick(WORDS)} ${pick(WORDS)} ${platform} ${i}`
    yield {
      id: (Math.floor(now / 1000).toString(16) + i.toString(16).padStart(16, '0')).slice(0, 24),
      platform_id: `b${i}`,
      name,
      platform,
      type: pick(TYPES[platform]),
      start_time: startTime,
      end_time: startTime + durationMinutes * 60_000,
      duration_minutes: durationMinutes,
      description: rand() < 0.5 ? `${pick(WORDS)} contest with ${pick(WORDS)} problems` : null,
      difficulty: pick(DIFFICULTIES),
      participant_count: Math.floor(rand() * 30000),
    }
  }
}

const sqlValue = (v) =>
  v === null || v === undefined
    ? 'NULL'
    : typeof v === 'number'
      ? String(v)
      : `'${String(v).replace(/'/g, "''")}'`

const COLUMNS = [
  ...['id', 'platform_id', 'name', 'platform', 'phase', 'type', 'start_time', 'end_time'],
  ...['duration_minutes', 'description', 'difficulty', 'participant_count', 'is_active'],
  ...['is_notified', 'last_synced_at', 'created_at', 'updated_at'],
]

/**
 * `count` synthetic contests as SQL inserts in `path` (under .wrangler/), for a bench to load into
 * a fresh database; answers the ids of the first `keepIds` contests.
 */
export function writeCatalogueSql(path, count, now, keepIds = 0) {
  const lines = []
  const ids = []
  for (const c of syntheticContests(count, now)) {
    const phase = c.start_time > now ? 'BEFORE' : c.end_time >= now ? 'CODING' : 'FINISHED'
    const row = [
      ...[c.id, c.platform_id, c.name, c.platform, phase, c.type, c.start_time, c.end_time],
      ...[c.duration_minutes, c.description, c.difficulty, c.participant_count, 1, 0],
      ...[now, now, now],
    ]
    if (ids.length < keepIds) ids.push(c.id)
    lines.push(
      `INSERT INTO contests (${COLUMNS.join(', ')}) VALUES (${row.map(sqlValue).join(', ')});`,
    )
  }
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, lines.join('\n'))
  return ids
}

/** The Deno binary the `deno` npm package installs; answers what it printed. */
export const deno = (args) =>
  execFileSync('npx', ['deno', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })

/** `2.9.5`: the version of that binary, for a bench's description of its run. */
export const denoVersion = () => /^deno (\S+)/.exec(deno(['--version']))[1]

/** Migrates a fresh `wrangler dev` state folder and loads the catalogue's SQL into its D1. */
export function seedWorkersState(state, seedPath) {
  wrangler(`d1 migrations apply DB --local --persist-to ${state}`)
  wrangler(`d1 execute DB --local --persist-to ${state} --file ${seedPath}`)
}

// Migrates the Deno entry's SQLite file as deno/main.ts does on start and loads the seed in one
// transaction. Node 20 has no node:sqlite, so Deno runs it; `deno eval` has every permission.
const DENO_SEED = [
  "import { applyMigrations } from './deno/migrations.ts'",
  "import { openSqliteD1 } from './deno/sqlite-d1.ts'",
  'const [path, seed] = Deno.args',
  'const db = openSqliteD1(path)',
  "await applyMigrations(db, 'migrations')",
  "await db.exec('BEGIN;\\n' + (await Deno.readTextFile(seed)) + '\\nCOMMIT;')",
  'db.close()',
].join('\n')

/** The same for the Deno entry's state folder (its db.sqlite). */
export function seedDenoState(state, seedPath) {
  mkdirSync(state, { recursive: true })
  deno(['eval', '--config', 'deno.json', '--ext=ts', DENO_SEED, `${state}/db.sqlite`, seedPath])
}
