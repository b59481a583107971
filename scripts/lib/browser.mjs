// The browser for the browser tests: Debian's Chromium and its CJK fonts (installed with apt-get
// when missing, since no test tool can download its own browser here) launched headless through
// playwright-core.
import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Flags for a closed network: without the background-networking ones Chromium's own connections
 * (updates, sync, first-run pings) are refused by the dozen and slow every start. `--no-sandbox`
 * because CI runs as root, where Chromium's sandbox refuses to start.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const HOW_TO_INSTALL =
  "Install Debian's chromium and fonts-noto-cjk packages (`sudo apt-get install chromium " +
  'fonts-noto-cjk`), or point CHROMIUM_PATH at a Chromium or Chrome executable.'

/** The first `name` on PATH that this process may execute, or undefined. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  return undefined
}

/** Runs an apt-get step with its output shown, bounded so a stuck mirror cannot hang CI. */
function aptGet(args, timeout) {
  console.log(`$ apt-get ${args.join(' ')}`)
  execFileSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout,
  })
}

/**
 * Debian's CJK faces: without them Chinese and Japanese titles (Luogu, Nowcoder, LeetCode China,
 * AtCoder) render as empty boxes in the pages and screenshots the suite takes.
 */
export const CJK_FONT_PATH = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'

/** Installs Debian packages, when this process is root with apt-get (as CI is); else throws. */
function aptInstall(packages, why) {
  if (process.getuid?.() !== 0 || !onPath('apt-get')) throw new Error(`${why} ${HOW_TO_INSTALL}`)
  console.log(`${why} Installing Debian's ${packages.join(' ')}`)
  aptGet(['update'], 120_000)
  aptGet(['install', '-y', '--no-install-recommends', ...packages], 600_000)
}

/**
 * The Chromium executable for the tests: CHROMIUM_PATH when set, else /usr/bin/chromium, installed
 * first from Debian's repositories when missing and this process is root with apt-get (as CI is),
 * with the CJK fonts beside it. Anything else throws, saying how to install it.
 */
export function ensureChromium() {
  const override = process.env.CHROMIUM_PATH
  if (override) {
    if (existsSync(override)) return override
    throw new Error(`CHROMIUM_PATH is ${override}, which does not exist. ${HOW_TO_INSTALL}`)
  }
  const missing = [
    ...(existsSync(CHROMIUM_PATH) ? [] : ['chromium']),
    ...(existsSync(CJK_FONT_PATH) ? [] : ['fonts-noto-cjk']),
  ]
  if (missing.includes('chromium')) {
    aptInstall(missing, `Chromium is not installed (${CHROMIUM_PATH} is missing).`)
  } else if (missing.length > 0) {
    // The pages still work without the fonts; only their Chinese and Japanese text does not show.
    try {
      aptInstall(missing, `The CJK fonts are not installed (${CJK_FONT_PATH} is missing).`)
    } catch (error) {
      console.warn(error.message)
    }
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is missing. ${HOW_TO_INSTALL}`)
  }
  console.log(execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim())
  return CHROMIUM_PATH
}

/**
 * Launches Chromium headless through playwright-core. Playwright gives every launch a fresh
 * temporary user-data dir of its own and deletes it on close() (it refuses `--user-data-dir` among
 * the args), so no profile carries over between runs.
 */
export async function launchBrowser({ executablePath = ensureChromium(), timeout = 30_000 } = {}) {
  const { chromium } = await import('playwright-core')
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true, timeout })
}
