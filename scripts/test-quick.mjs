// `npm run test:quick`: the inner loop. Runs the test files that pin what changed since the last
// commit (staged, unstaged and new files): a changed test file itself, and for a changed module
// the test files that import it by name and those named after its feature folder
// (src/communities/claims.ts -> test/communities*.test.ts). Vitest's own --changed follows every
// import, and since most tests call the whole Worker it picks nearly every file; this stays
// within the change. `npm test` still runs everything.
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean)
const changed = [
  ...new Set([
    ...git('diff', '--name-only', 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]),
]

/** Every test file vitest runs (vitest.config.ts: test/ and the platforms' folders). */
function testFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path)
    return entry.name.endsWith('.test.ts') ? [path] : []
  })
}
const tests = [...testFiles('test'), ...testFiles('src/platforms')]
const texts = new Map(tests.map((file) => [file, readFileSync(file, 'utf8')]))

const picked = new Set()
for (const file of changed) {
  if (!/\.(ts|tsx)$/.test(file)) continue
  if (texts.has(file)) {
    picked.add(file)
    continue
  }
  if (!file.startsWith('src/')) continue
  // An import names the module's file: `…/communities/claims.ts`.
  const module = `${basename(dirname(file))}/${basename(file)}`
  const feature = file.split('/')[1]
  for (const [test, text] of texts) {
    if (text.includes(`/${module}'`) || basename(test).startsWith(feature)) picked.add(test)
  }
}

if (picked.size === 0) {
  console.log('test:quick: no test file pins what changed since the last commit; npm test runs all')
  process.exit(0)
}
console.log(`test:quick: ${picked.size} test files for ${changed.length} changed files`)
const run = spawnSync('npx', ['vitest', 'run', ...picked], { stdio: 'inherit' })
process.exit(run.status ?? 1)
