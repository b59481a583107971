// Checks that every D1 table is read and written only by its owner: no file of src/ outside the
// owner imports the table's drizzle object or names the table in raw SQL. Other features call the
// owner's functions or use a SQL fragment the owner exports. `npm run check:tables` (and CI).
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Table -> the folder (or file) under src/ that owns it. docs/architecture.md lists the same. */
export const OWNERS = {
  contests: 'contests',
  contest_reschedules: 'contests',
  contest_cancellations: 'contests',
  users: 'users',
  user_platforms: 'users',
  push_subscriptions: 'users',
  channel_blocks: 'users',
  community_destinations: 'communities',
  community_announcements: 'communities',
  community_events: 'communities',
  community_message_changes: 'communities',
  contest_subscriptions: 'users',
  telegram_links: 'users',
  calendar_feeds: 'calendar',
  sessions: 'auth',
  rotated_refresh_tokens: 'auth',
  email_codes: 'auth',
  sync_runs: 'sync',
  platform_status: 'sync',
  job_locks: 'db/job-lock.ts',
  job_runs: 'status',
  incidents: 'status',
  notifications: 'notifications',
  notification_deliveries: 'notifications',
  notification_contents: 'notifications',
  notification_edits: 'notifications',
  delivery_attempts: 'notifications',
  contact_messages: 'admin',
  conversations: 'resources',
  messages: 'resources',
  submissions: 'resources',
  ingestion_jobs: 'resources',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  discord_interactions: 'channels/discord',
  judge_handles: 'results',
  result_preferences: 'results',
  result_checks: 'results',
  contest_results: 'results',
  community_members: 'results',
  community_rank_posts: 'communities',
}

const root = new URL('..', import.meta.url).pathname
const src = join(root, 'src')
const SCHEMA = 'db/schema.ts'

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'gen' ? [] : filesUnder(path)
    return /\.tsx?$/.test(path) ? [path] : []
  })
}

const schema = readFileSync(join(src, SCHEMA), 'utf8')
/** drizzle export name -> SQL table name, read from the schema itself. */
const tableOf = new Map(
  [...schema.matchAll(/export const (\w+) = sqliteTable\(\s*'(\w+)'/g)].map((m) => [m[1], m[2]]),
)
const unowned = [...tableOf.values()].filter((table) => !(table in OWNERS))

const withoutComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')

/** Value (not type-only) names imported from the schema module. */
function schemaImports(code) {
  const names = []
  for (const m of code.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'[./]*db\/schema\.ts'/g)) {
    if (m[1]) continue
    for (const part of m[2].split(',')) {
      const name = part.trim()
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0])
    }
  }
  return names
}

const SQL_TABLE = /\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\s+([a-z_]+)\b/g

const ownedBy = (file, owner) => file === owner || file.startsWith(`${owner}/`)

const problems = []
for (const path of filesUnder(src)) {
  const file = relative(src, path)
  if (file === SCHEMA) continue
  const code = withoutComments(readFileSync(path, 'utf8'))
  const found = new Map()
  for (const name of schemaImports(code)) {
    const table = tableOf.get(name)
    if (table) found.set(table, `imports ${name}`)
  }
  for (const m of code.matchAll(SQL_TABLE)) {
    if (m[1] in OWNERS && !found.has(m[1])) found.set(m[1], `names ${m[1]} in SQL`)
  }
  for (const [table, how] of found) {
    if (!ownedBy(file, OWNERS[table])) {
      problems.push(`src/${file} ${how}: ${table} belongs to ${OWNERS[table]}`)
    }
  }
}

for (const table of unowned)
  problems.push(`table ${table} has no owner in scripts/check-table-owners.mjs`)
if (problems.length > 0) {
  console.error(problems.join('\n'))
  console.error(`\n${problems.length} table access(es) outside the owner`)
  process.exit(1)
}
console.log(`table owners: ${tableOf.size} tables, each used only by its owner`)
