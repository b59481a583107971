// The Bot API's reading of parse_mode HTML, as far as the stand-in needs it: a message with a `<`
// that opens no tag Telegram supports, an unclosed or stray closing tag, or an `&` that starts no entity is
// refused with Telegram's 400 "can't parse entities", so a reply built from unescaped text that
// the real Telegram would drop is dropped here too.

// The tags the Bot API accepts (https://core.telegram.org/bots/api#html-style).
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
])
// &lt; &gt; &amp; &quot; and every numeric entity; no other named one.
const ENTITY = /^&(?:lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i
const TAG = /^<(\/?)([a-z][a-z-]*)(?:\s[^<>]*)?>/i

/** Why Telegram would refuse `text` as HTML, in its words, or undefined when it parses. */
export function telegramHtmlProblem(text: string): string | undefined {
  const open: string[] = []
  for (let at = 0; at < text.length; at++) {
    const ch = text[at]
    if (ch === '&') {
      if (!ENTITY.test(text.slice(at))) return `Can't find end of the entity at byte offset ${at}`
    } else if (ch === '<') {
      const tag = TAG.exec(text.slice(at))
      if (!tag) return `Unsupported start tag at byte offset ${at}`
      const [whole, closing, name] = tag
      const lower = name.toLowerCase()
      if (!TAGS.has(lower)) return `Unsupported start tag "${lower}" at byte offset ${at}`
      if (closing) {
        if (open.pop() !== lower) return `Unmatched end tag at byte offset ${at}`
      } else {
        open.push(lower)
      }
      at += whole.length - 1
    }
  }
  return open.length > 0
    ? `Can't find end tag corresponding to start tag "${open.at(-1)}"`
    : undefined
}
