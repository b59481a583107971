// Checks that no migration after the last release drops or renames what that release reads, so
// `wrangler rollback` to it keeps working on the migrated schema (expand, then contract later).
// Released migrations are those CHANGELOG.md lists under a version heading; a later one may drop
// or rename only with an annotation naming a released version after which it is safe:
//   -- contract: safe after 1.2.0 (no release since 1.2.0 reads users.legacy_column)
// `npm run check:migrations` (and CI). docs/operations.md, "Rollback and migrations".
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const MIGRATION = /^(\d{4})_[a-z0-9_]+\.sql$/
const RELEASE_HEADING = /^## \[(\d+\.\d+\.\d+)\]/
const ANNOTATION = /^--\s*contract:\s*safe after\s+(\d+\.\d+\.\d+)\b/im

/** Versions released, newest first, each with the migrations its section lists. */
export function releasesOf(changelog) {
  const releases = []
  let current
  for (const line of changelog.split('\n')) {
    if (line.startsWith('## ')) {
      const version = RELEASE_HEADING.exec(line)?.[1]
      // "## [Unreleased]" and any other heading end the section of the release before them.
      current = version ? { version, migrations: [] } : undefined
      if (current) releases.push(current)
      continue
    }
    if (!current) continue
    for (const [name] of line.matchAll(/\b\d{4}_[a-z0-9_]+\.sql\b/g)) current.migrations.push(name)
  }
  return releases
}

/** The SQL without comments, so a commented-out DROP neither counts nor hides behind one. */
function withoutComments(sql) {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ')
}

const name = String.raw`[\x60"\[]?([A-Za-z0-9_]+)[\x60"\]]?`

/**
 * What a statement of `sql` removes or renames that an older release may read. Indexes only
 * change how fast a query runs, so dropping one is allowed, unless it is UNIQUE (an older
 * release's ON CONFLICT may name it) and this migration does not create it again; a trigger
 * (FTS5 upkeep) likewise only when it is created again.
 */
export function breakingStatements(sql, uniqueIndexes) {
  const text = withoutComments(sql)
  const recreated = (kind) =>
    new Set(
      [
        ...text.matchAll(
          new RegExp(
            String.raw`CREATE\s+(?:UNIQUE\s+)?${kind}\s+(?:IF\s+NOT\s+EXISTS\s+)?${name}`,
            'gi',
          ),
        ),
      ].map((m) => m[1]),
    )
  const indexes = recreated('INDEX')
  const triggers = recreated('TRIGGER')
  const found = []
  const rules = [
    [String.raw`DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?${name}`, (m) => `drops table ${m[1]}`],
    [String.raw`DROP\s+VIEW\s+(?:IF\s+EXISTS\s+)?${name}`, (m) => `drops view ${m[1]}`],
    [
      String.raw`ALTER\s+TABLE\s+${name}\s+DROP\s+(?:COLUMN\s+)?${name}`,
      (m) => `drops column ${m[1]}.${m[2]}`,
    ],
    [
      String.raw`ALTER\s+TABLE\s+${name}\s+RENAME\s+(?:COLUMN\s+)?(?!TO\b)${name}\s+TO\s+${name}`,
      (m) => `renames column ${m[1]}.${m[2]} to ${m[3]}`,
    ],
    [
      String.raw`ALTER\s+TABLE\s+${name}\s+RENAME\s+TO\s+${name}`,
      (m) => `renames table ${m[1]} to ${m[2]}`,
    ],
    [
      String.raw`DROP\s+INDEX\s+(?:IF\s+EXISTS\s+)?${name}`,
      (m) =>
        uniqueIndexes.has(m[1]) && !indexes.has(m[1]) ? `drops unique index ${m[1]}` : undefined,
    ],
    [
      String.raw`DROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?${name}`,
      (m) => (triggers.has(m[1]) ? undefined : `drops trigger ${m[1]}`),
    ],
  ]
  for (const [pattern, describe] of rules) {
    for (const match of text.matchAll(new RegExp(pattern, 'gi'))) {
      const what = describe(match)
      if (what) found.push(what)
    }
  }
  return found
}

/** Every problem with `migrations` (name -> SQL, in name order) against the changelog's text. */
export function migrationProblems(migrations, changelog) {
  const problems = []
  const names = Object.keys(migrations).sort()
  for (const file of names) {
    if (!MIGRATION.test(file)) problems.push(`${file}: not named NNNN_words.sql`)
  }
  const releases = releasesOf(changelog)
  const released = new Set(releases.flatMap((r) => r.migrations))
  for (const file of released) {
    if (!(file in migrations)) problems.push(`CHANGELOG.md lists ${file}, which does not exist`)
  }
  // The watermark: every migration up to the newest one a release lists shipped with a release.
  const watermark = names.filter((f) => released.has(f)).at(-1) ?? ''
  const versions = new Set(releases.map((r) => r.version))
  const uniqueIndexes = new Set()
  for (const file of names) {
    const sql = migrations[file]
    if (file > watermark) {
      const breaking = breakingStatements(sql, uniqueIndexes)
      if (breaking.length > 0) {
        const safeAfter = ANNOTATION.exec(sql)?.[1]
        if (!safeAfter) {
          problems.push(
            `${file} ${breaking.join(', ')}, which the last release may read: add columns and ` +
              'tables now, drop or rename them in a later release, annotated ' +
              '`-- contract: safe after <the release that stopped reading them>`',
          )
        } else if (!versions.has(safeAfter)) {
          problems.push(
            `${file} ${breaking.join(', ')}, safe after ${safeAfter}, which CHANGELOG.md does ` +
              'not list as released: ship it in the release after that one',
          )
        }
      }
    }
    const created = String.raw`CREATE\s+UNIQUE\s+INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?${name}`
    for (const m of withoutComments(sql).matchAll(new RegExp(created, 'gi'))) {
      uniqueIndexes.add(m[1])
    }
  }
  return { problems, watermark, unreleased: names.filter((f) => f > watermark) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = new URL('..', import.meta.url).pathname
  const dir = join(root, 'migrations')
  const migrations = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  )
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')
  const { problems, watermark, unreleased } = migrationProblems(migrations, changelog)
  for (const problem of problems) console.error(`migrations: ${problem}`)
  if (problems.length > 0) process.exit(1)
  console.log(
    `migrations: released up to ${watermark || 'none'}; ${unreleased.length} since ` +
      `(${unreleased.join(', ') || 'none'}) drop or rename nothing the last release reads`,
  )
}
