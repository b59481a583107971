// HTML escaping of untrusted text placed inside HTML (emails, pages).

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Escapes the characters that let text break out of an element or a quoted attribute. The single
 * quote is escaped too, so the result is also safe inside a single-quoted attribute.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch])
}

/** Escaped text whose line breaks survive as <br>, for messages people typed. */
export function escapeMultiline(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>')
}

/**
 * The URL escaped for an href, or undefined unless it is http(s): a `javascript:` or `data:`
 * link in an email would run or mislead wherever the client allows it.
 */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined
    return escapeHtml(parsed.href)
  } catch {
    return undefined
  }
}
