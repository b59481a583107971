// How `npm run deploy` runs wrangler, reads its output, and stops. wrangler runs with no terminal
// on stdin, so it never asks: it takes its non-interactive defaults.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const WRANGLER = join(require.resolve('wrangler/package.json'), '..', 'bin', 'wrangler.js')

/**
 * Runs `wrangler <args>` in `cwd` with `env`; `echo` writes its output through as it comes
 * (indented). Resolves with { code, stdout, stderr, output } whatever the exit code.
 */
export function wrangler(args, { cwd, env, echo = false }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    const show = (text) => {
      if (echo) process.stdout.write(text.replace(/^(?=.)/gm, '    '))
    }
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text
      show(text)
    })
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text
      show(text)
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, output: stdout + stderr }))
  })
}

/** A reason to stop the deploy, said plainly; `exitCode` 2 when nothing was changed. */
export class DeployError extends Error {
  constructor(message, exitCode = 1) {
    super(message)
    this.exitCode = exitCode
  }
}

/**
 * `run(args, echo)` answers whatever wrangler did; `must(what, args, echo)` stops the deploy when
 * it fails, after showing wrangler's own words.
 */
export function wranglerRunner({ cwd, env }) {
  const run = (args, echo = false) => wrangler(args, { cwd, env, echo })
  const must = async (what, args, echo = false) => {
    const result = await run(args, echo)
    if (result.code !== 0) {
      if (!echo) process.stderr.write(result.output)
      throw new DeployError(`${what} failed (wrangler ${args.slice(0, 3).join(' ')}): see above.`)
    }
    return result
  }
  return { run, must }
}

/** Whether wrangler said the Worker does not exist (API code 10007, which it words itself). */
export const workerMissing = (output) =>
  /\[code: 10007\]/.test(output) || /Worker "[^"]+" not found/.test(output)

/** The last JSON array wrangler printed (`d1 list --json`, `kv namespace list`, `secret list`). */
export function jsonArrayIn(stdout) {
  const start = stdout.indexOf('[')
  const end = stdout.lastIndexOf(']')
  if (start < 0 || end < start) throw new Error(`no JSON list in wrangler's output:\n${stdout}`)
  return JSON.parse(stdout.slice(start, end + 1))
}

/** The queue names of `wrangler queues list`'s table (its `name` column). */
export function queueNamesIn(stdout) {
  const rows = stdout
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
  if (rows.length === 0) return []
  const column = rows[0].indexOf('name')
  if (column < 0) throw new Error(`no name column in wrangler's queue list:\n${stdout}`)
  return rows.slice(1).map((cells) => cells[column])
}
