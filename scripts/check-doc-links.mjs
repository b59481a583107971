// Checks that every relative link of the README and the docs leads somewhere: the file exists in
// the repository, and an anchor (#section) names a heading of its page, as GitHub makes them.
// Links that leave the repository (../shared, say) are refused too: a clone must make sense
// alone. docs/decisions.md's entries (`## D<n>. Title`) must each be numbered once and listed in
// its contents. `npm run check:links` (and CI); Node's built-ins only.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative, resolve } from 'node:path'

const ROOT = process.cwd()

/** The Markdown pages people read: the top level's, docs/ and every folder's README. */
function pages(dir = '.') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      return ['node_modules', '.git', '.wrangler', '.deno-state'].includes(entry.name) ||
        entry.name.startsWith('.')
        ? []
        : pages(path)
    }
    return entry.name.endsWith('.md') ? [path] : []
  })
}

/** The text without fenced blocks, whose lines are neither headings nor links. */
const unfenced = (text) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')

/** The text without fenced blocks and inline code, whose brackets are not links. */
function prose(text) {
  return unfenced(text).replace(/`[^`\n]*`/g, '')
}

/** GitHub's anchor of a heading's text: inline code kept as its text, punctuation dropped. */
export function slug(heading) {
  return heading
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(file) {
  const seen = new Map()
  const anchors = new Set()
  for (const [, heading] of unfenced(readFileSync(file, 'utf8')).matchAll(
    /^#{1,6}\s+(.+?)\s*#*$/gm,
  )) {
    const base = slug(heading)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

const anchorCache = new Map()
const anchors = (file) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(file))
  return anchorCache.get(file)
}

const problems = []
let checked = 0
for (const page of pages()) {
  const text = prose(readFileSync(page, 'utf8'))
  for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
    checked++
    const [path, anchor] = target.split('#')
    const file = path ? resolve(dirname(page), decodeURIComponent(path)) : resolve(page)
    const inside = relative(ROOT, file)
    if (inside.startsWith('..')) {
      problems.push(`${page}: ${target} leads out of the repository`)
      continue
    }
    if (!existsSync(file)) {
      problems.push(`${page}: ${target}: no such file ${normalize(inside)}`)
      continue
    }
    if (anchor && file.endsWith('.md') && statSync(file).isFile() && !anchors(file).has(anchor)) {
      problems.push(`${page}: ${target}: no heading #${anchor} in ${normalize(inside)}`)
    }
  }
}
// docs/decisions.md: each decision is `## D<n>. Title`, its number used once, and listed in the
// contents at the top (a link to its anchor before the first entry).
const DECISIONS = 'docs/decisions.md'
const decisions = unfenced(readFileSync(DECISIONS, 'utf8'))
const firstEntry = decisions.search(/^## D\d+\. /m)
if (firstEntry < 0) problems.push(`${DECISIONS}: no \`## D<n>. Title\` entry`)
const contents = new Set(
  [...decisions.slice(0, Math.max(firstEntry, 0)).matchAll(/\]\(#([^)\s]+)\)/g)].map((m) => m[1]),
)
const numbers = new Map()
for (const [, heading, n] of decisions.matchAll(/^## (D(\d+)\. .+?)\s*$/gm)) {
  if (numbers.has(n))
    problems.push(`${DECISIONS}: D${n} is used twice ("${numbers.get(n)}", "${heading}")`)
  else numbers.set(n, heading)
  if (!contents.has(slug(heading))) problems.push(`${DECISIONS}: ${heading} is not in the contents`)
}
for (const heading of decisions.matchAll(/^## (?!D\d+\. )(.+)$/gm)) {
  if (decisions.indexOf(heading[0]) > firstEntry) {
    problems.push(`${DECISIONS}: "${heading[1]}" is not a \`## D<n>. Title\` entry`)
  }
}

for (const problem of problems) console.error(problem)
if (problems.length > 0) process.exit(1)
console.log(
  `links: ${checked} relative links of the docs lead to files and headings that exist; ` +
    `${numbers.size} decisions, each numbered once and in the contents`,
)
