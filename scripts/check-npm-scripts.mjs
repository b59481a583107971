// Checks that every `npm run <script>` the README and docs name exists in package.json and installs
// what it needs on a fresh clone: a pre-hook runs scripts/lib/ensure-deps.mjs unless the script
// needs nothing from node_modules. `npm run check:scripts` (and CI).
import { readFileSync, readdirSync } from 'node:fs'

// Scripts that run on Node's built-ins alone, so a fresh clone needs no install for them.
const NEEDS_NOTHING = new Set(['check:scripts', 'check:links'])

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'))
const documents = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const problems = []
for (const file of documents) {
  for (const [, name] of readFileSync(file, 'utf8').matchAll(/npm run ([\w:-]+)/g)) {
    if (!(name in scripts)) problems.push(`${file}: npm run ${name} is not a script`)
    else if (!NEEDS_NOTHING.has(name) && !scripts[`pre${name}`]?.includes('ensure-deps')) {
      problems.push(`${file}: npm run ${name} has no pre${name} hook that installs dependencies`)
    }
  }
}
for (const problem of new Set(problems)) console.error(problem)
if (problems.length > 0) process.exit(1)
console.log('scripts: every npm script the docs name installs what it needs')
