// Installs the locked dependencies when node_modules is missing or older than package-lock.json,
// so `npm start` and `npm test` work on a fresh clone. Node built-ins only: it runs before install.
import { execSync } from 'node:child_process'
import { existsSync, lstatSync, statSync } from 'node:fs'

const marker = 'node_modules/.package-lock.json'
// A node_modules that is a link belongs to another checkout (a git worktree borrowing it): a
// `npm ci` through the link would empty that checkout's install, so it is left as it is.
const borrowed = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink()
const stale =
  !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs

if (borrowed) {
  if (stale) console.log('node_modules is a link to another checkout: not reinstalling it here')
} else if (stale) {
  console.log('Installing dependencies (npm ci)...')
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' })
}
