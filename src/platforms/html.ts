// Reading HTML pages (AtCoder, Nowcoder, GeeksforGeeks) with htmlparser2: a maintained, spec-minded parser that
// runs on Workers and Deno alike (neither has a DOM), decoding entities and attributes for us.
import { DomUtils, ElementType, parseDocument } from 'htmlparser2'

export type HtmlDocument = ReturnType<typeof parseDocument>
export type HtmlElement = Parameters<typeof DomUtils.getAttributeValue>[0]
type HtmlNode = HtmlDocument['children'][number]

export function parseHtml(html: string): HtmlDocument {
  return parseDocument(html, { decodeEntities: true })
}

/** Every element under `root` (depth first, in document order) that `test` accepts. */
export function findElements(
  root: HtmlDocument | HtmlElement,
  test: (element: HtmlElement) => boolean,
): HtmlElement[] {
  return DomUtils.findAll(test, root.children as HtmlNode[])
}

/** The first element under `root` named `name` (lower case), if any. */
export function firstByName(root: HtmlDocument | HtmlElement, name: string) {
  return DomUtils.findOne((e) => e.name === name, root.children as HtmlNode[]) ?? undefined
}

/** Child elements named `name` of `parent`, not their descendants. */
export function childrenByName(parent: HtmlElement, name: string): HtmlElement[] {
  return DomUtils.getChildren(parent).filter(
    (n): n is HtmlElement => ElementType.isTag(n) && (n as HtmlElement).name === name,
  )
}

export function elementById(root: HtmlDocument | HtmlElement, id: string) {
  return DomUtils.getElementById(id, root.children as HtmlNode[]) ?? undefined
}

/** An attribute's decoded value, or undefined. */
export function attribute(element: HtmlElement, name: string): string | undefined {
  return DomUtils.getAttributeValue(element, name)
}

/** The element's text with runs of whitespace folded to one space and the ends trimmed. */
export function textOf(element: HtmlElement): string {
  return DomUtils.textContent(element).replace(/\s+/g, ' ').trim()
}

/** The element's text exactly as it is: a script's JSON, where whitespace inside strings counts. */
export function rawTextOf(element: HtmlElement): string {
  return DomUtils.textContent(element)
}
