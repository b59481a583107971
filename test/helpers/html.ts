// Reads served HTML with workerd's own streaming parser (HTMLRewriter), so tests look at elements
// and attributes as a browser would find them, not at strings.
export interface FoundElement {
  tag: string
  attrs: Record<string, string>
  /** The text HTMLRewriter hands over inside the element, entities decoded. */
  text: string
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Decodes the entities an escaper writes, as a browser reads attribute values and text. */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name] ?? whole
    return String.fromCodePoint(Number(name[1] === 'x' ? `0${name.slice(1)}` : name.slice(1)))
  })
}

/** Every element matching `selector`, in document order. */
export async function select(html: string, selector: string): Promise<FoundElement[]> {
  const found: FoundElement[] = []
  let open: FoundElement | undefined
  const rewriter = new HTMLRewriter().on(selector, {
    element(el) {
      const attrs = [...el.attributes].map(([name, value]) => [name, decode(value)])
      open = { tag: el.tagName, attrs: Object.fromEntries(attrs), text: '' }
      found.push(open)
    },
    text(chunk) {
      if (open) open.text += chunk.text
    },
  })
  await rewriter.transform(new Response(html)).text()
  return found.map((element) => ({ ...element, text: decode(element.text) }))
}

/** The one element matching `selector`; fails unless there is exactly one. */
export async function selectOne(html: string, selector: string): Promise<FoundElement> {
  const found = await select(html, selector)
  if (found.length !== 1) throw new Error(`${found.length} elements match ${selector}`)
  return found[0]
}
