// Checks that every command and file the README and docs name works on a fresh clone: each
// `npm run <script>` exists in package.json and installs what it needs (a pre-hook runs
// scripts/lib/ensure-deps.mjs unless the script needs nothing from node_modules); each `node <file>`
// and `bash <file>` and each code-formatted repository path exists; every script of package.json
// is listed in docs/commands.md; and every setting src/env.ts reads or wrangler.toml lists is in
// one table row of docs/settings.md. `npm run check:scripts` (and CI); Node's built-ins only.
import { existsSync, readFileSync, readdirSync } from 'node:fs'

// Scripts that run on Node's built-ins alone, so a fresh clone needs no install for them.
const NEEDS_NOTHING = new Set(['check:scripts', 'check:links'])
// The docs' example platform and channel ("Adding a platform" in docs/architecture.md): its paths
// show where a new one's files go, so they do not exist.
const EXAMPLE_NAMES = /\/acme\b/
const COMMANDS_DOC = 'docs/commands.md'
const SETTINGS_DOC = 'docs/settings.md'

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'))
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const problems = []

/** The top-level entries a repository path may start with: what the clone holds, not git-ignored. */
const ignored = readFileSync('.gitignore', 'utf8')
  .split('\n')
  .map((l) => l.trim().replace(/^\//, '').replace(/\/$/, ''))
  .filter((l) => l && !l.startsWith('#'))
const topLevel = new Set(
  readdirSync('.').filter(
    (name) => name !== '.git' && name !== 'node_modules' && !ignored.includes(name),
  ),
)

/** Inline code spans of a page, fenced blocks' lines included (a command there counts too). */
function codeOf(text) {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1])
  const fenced = [...text.matchAll(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1/gm)].flatMap((m) =>
    m[2].split('\n'),
  )
  return [...spans, ...fenced]
}

/** A code span that names a file or folder of the repository, or undefined. */
function repoPath(span) {
  const path = span.trim()
  if (!/^[\w.-]+\/[\w./-]*$/.test(path)) return undefined // one token, with a slash, no placeholder
  if (EXAMPLE_NAMES.test(`/${path}`)) return undefined
  const first = path.split('/')[0]
  return topLevel.has(first) ? path.replace(/\/$/, '') : undefined
}

for (const file of documents) {
  const text = readFileSync(file, 'utf8')
  for (const [, name] of text.matchAll(/npm run ([\w:-]+)/g)) {
    if (!(name in scripts)) problems.push(`${file}: npm run ${name} is not a script`)
    else if (!NEEDS_NOTHING.has(name) && !scripts[`pre${name}`]?.includes('ensure-deps')) {
      problems.push(`${file}: npm run ${name} has no pre${name} hook that installs dependencies`)
    }
  }
  const code = codeOf(text)
  for (const line of code) {
    for (const [, runner, target] of line.matchAll(
      /\b(node|bash) ((?:\.{0,2}\/)?[\w.-]+\/[\w./-]+)/g,
    )) {
      if (!existsSync(target)) problems.push(`${file}: \`${runner} ${target}\`: no such file`)
    }
  }
  for (const span of code) {
    const path = repoPath(span)
    if (path && !existsSync(path)) problems.push(`${file}: \`${path}\`: no such file or folder`)
  }
}

// Every script is on docs/commands.md, but the pre-hooks, which only install.
const commands = readFileSync(COMMANDS_DOC, 'utf8')
for (const name of Object.keys(scripts)) {
  if (name.startsWith('pre') && name.slice(3) in scripts) continue
  const named =
    commands.includes(`npm run ${name}\``) ||
    (['start', 'test'].includes(name) && commands.includes(`npm ${name}\``)) ||
    commands.includes(`\`${name}\``)
  if (!named) problems.push(`${COMMANDS_DOC}: the script ${name} is not listed`)
}

// Every setting: the keys of src/env.ts's schema and Secrets interface, and wrangler.toml's [vars].
const env = readFileSync('src/env.ts', 'utf8')
const blocks = [
  /^interface Secrets \{\n([\s\S]*?)\n\}/m.exec(env)?.[1],
  /^const settingsSchema = z\.object\(\{\n([\s\S]*?)\n\}\)/m.exec(env)?.[1],
]
if (blocks.some((b) => b === undefined)) {
  problems.push(
    'src/env.ts: no `interface Secrets` or `settingsSchema` block to read settings from',
  )
}
const settings = new Set(
  blocks.flatMap((b) => [...(b ?? '').matchAll(/^ {2}([A-Z][A-Z0-9_]*)\??:/gm)].map((m) => m[1])),
)
const vars = /^\[vars\]\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(readFileSync('wrangler.toml', 'utf8'))
for (const [, name] of (vars?.[1] ?? '').matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm)) settings.add(name)
// A setting's row: a table line whose first cell names it in code.
const rows = new Map()
for (const line of readFileSync(SETTINGS_DOC, 'utf8').split('\n')) {
  const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? ''
  for (const [, name] of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) {
    rows.set(name, (rows.get(name) ?? 0) + 1)
  }
}
for (const name of settings) {
  const count = rows.get(name) ?? 0
  if (count === 0) problems.push(`${SETTINGS_DOC}: the setting ${name} has no row`)
  if (count > 1) problems.push(`${SETTINGS_DOC}: the setting ${name} has ${count} rows`)
}

for (const problem of new Set(problems)) console.error(problem)
if (problems.length > 0) process.exit(1)
console.log(
  `scripts: every npm script the docs name installs what it needs, every file they name exists, ` +
    `${COMMANDS_DOC} lists every script and ${SETTINGS_DOC} all ${settings.size} settings`,
)
