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
