// Reads and writes one benchmark's figures in its marked section of docs/performance.md.
import { readFileSync, writeFileSync } from 'node:fs'

const DOC = 'docs/performance.md'

const markers = (name) => [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`]

/**
 * The lines between a section's markers, so a benchmark that fills only part of a section (one
 * runtime's columns) can keep the rest.
 */
export function readSection(name) {
  const [start, end] = markers(name)
  const text = readFileSync(DOC, 'utf8')
  const from = text.indexOf(start)
  const to = text.indexOf(end, from)
  if (from < 0 || to < 0) throw new Error(`${DOC} has no ${start} section`)
  return text
    .slice(from + start.length, to)
    .split('\n')
    .slice(1, -1)
}

export function replaceSection(name, lines) {
  const [start, end] = markers(name)
  const text = readFileSync(DOC, 'utf8')
  if (!text.includes(start)) throw new Error(`${DOC} has no ${start} section`)
  const pattern = new RegExp(`${start}[\\s\\S]*${end}`)
  // A function, so a `$` in the figures is not read as a replacement pattern.
  writeFileSync(
    DOC,
    text.replace(pattern, () => [start, ...lines, end].join('\n')),
  )
  console.log(`Figures written to ${DOC} (${name})`)
}
