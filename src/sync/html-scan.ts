// A small HTML scanner for pages whose tables we read (AtCoder): Workers and Deno share no DOM
// parser, so elements are found by walking tags and matching nesting, never by one big regex.

export interface Element {
  name: string
  /** The raw attribute text of the opening tag. */
  attrs: string
  /** The HTML between the opening and the closing tag. */
  inner: string
}

// Attribute values are skipped as quoted strings so that a `>` inside one does not end the tag.
const TAG = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g

const RAW_TEXT = new Set(['script', 'style'])

interface Tag {
  closing: boolean
  name: string
  attrs: string
  start: number
  end: number
}

function* scanTags(html: string, from = 0): Generator<Tag> {
  const re = new RegExp(TAG.source, 'g')
  re.lastIndex = from
  let lower: string | undefined
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[2] === undefined) continue // a comment
    const tag = {
      closing: m[1] === '/',
      name: m[2].toLowerCase(),
      attrs: m[3],
      start: m.index,
      end: m.index + m[0].length,
    }
    yield tag
    // Scripts and styles are raw text: a "<div" in a string there is not an element.
    if (!tag.closing && RAW_TEXT.has(tag.name)) {
      const close = (lower ??= html.toLowerCase()).indexOf(`</${tag.name}`, tag.end)
      re.lastIndex = close === -1 ? html.length : close
    }
  }
}

// Cells and rows whose end tag a page may leave out (HTML allows it), with the tags that end
// them implicitly: a new sibling, or the end of an enclosing row or table.
const CELL_END = {
  openers: new Set(['td', 'th', 'tr', 'tbody', 'thead', 'tfoot']),
  closers: new Set(['tr', 'tbody', 'thead', 'tfoot', 'table']),
}
const IMPLIED_END: Record<string, { openers: Set<string>; closers: Set<string> }> = {
  td: CELL_END,
  th: CELL_END,
  tr: {
    openers: new Set(['tr', 'tbody', 'thead', 'tfoot']),
    closers: new Set(['tbody', 'thead', 'tfoot', 'table']),
  },
}

/** Where the element opened by `open` ends; an unclosed element runs to the end of `html`. */
function closeOf(html: string, open: Tag): { innerEnd: number; end: number } {
  if (/\/\s*$/.test(open.attrs)) return { innerEnd: open.end, end: open.end }
  const implied = IMPLIED_END[open.name]
  let depth = 1
  let nestedTables = 0
  for (const tag of scanTags(html, open.end)) {
    if (implied) {
      // The rows and cells of a table nested in a cell are not this element's siblings.
      if (tag.name === 'table' && !tag.closing) nestedTables++
      else if (tag.name === 'table' && nestedTables > 0) nestedTables--
      else if (nestedTables === 0) {
        if (tag.closing && tag.name === open.name) return { innerEnd: tag.start, end: tag.end }
        if ((tag.closing ? implied.closers : implied.openers).has(tag.name)) {
          return { innerEnd: tag.start, end: tag.start }
        }
      }
      continue
    }
    if (tag.name !== open.name) continue
    depth += tag.closing ? -1 : 1
    if (depth === 0) return { innerEnd: tag.start, end: tag.end }
  }
  return { innerEnd: html.length, end: html.length }
}

function toElement(html: string, open: Tag): Element & { end: number } {
  const { innerEnd, end } = closeOf(html, open)
  return { name: open.name, attrs: open.attrs, inner: html.slice(open.end, innerEnd), end }
}

/** The value of attribute `name` in a tag's attribute text, unquoted and decoded. */
export function attribute(attrs: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i')
  const m = re.exec(attrs)
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3]) : undefined
}

/** The first element anywhere in `html` whose id is `id`. */
export function elementById(html: string, id: string): Element | undefined {
  for (const tag of scanTags(html)) {
    if (!tag.closing && attribute(tag.attrs, 'id') === id) {
      const { end: _end, ...element } = toElement(html, tag)
      return element
    }
  }
  return undefined
}

/** The first element named `name` in `html`, at any depth. */
export function firstElement(html: string, name: string): Element | undefined {
  return elements(html, name)[0]
}

/** Elements named `name` in `html` that are not inside another one of the same name. */
export function elements(html: string, name: string): Element[] {
  const found: Element[] = []
  let from = 0
  for (;;) {
    let open: Tag | undefined
    for (const tag of scanTags(html, from)) {
      if (!tag.closing && tag.name === name) {
        open = tag
        break
      }
    }
    if (!open) return found
    const { end, ...element } = toElement(html, open)
    found.push(element)
    from = end
  }
}

/** The text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  const withoutTags = html.replace(new RegExp(TAG.source, 'g'), ' ')
  return decodeEntities(withoutTags).replace(/\s+/g, ' ').trim()
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[ref.toLowerCase()] ?? whole
  })
}
