// Writes one benchmark's figures into its marked section of docs/performance.md.
import { readFileSync, writeFileSync } from 'node:fs'

const DOC = 'docs/performance.md'

export function replaceSection(name, lines) {
  const start = `<!-- bench:${name}:start -->`
  const end = `<!-- bench:${name}:end -->`
  const text = readFileSync(DOC, 'utf8')
  if (!text.includes(start)) throw new Error(`${DOC} has no ${start} section`)
  const pattern = new RegExp(`${start}[\\s\\S]*${end}`)
  writeFileSync(DOC, text.replace(pattern, [start, ...lines, end].join('\n')))
  console.log(`Figures written to ${DOC} (${name})`)
}
