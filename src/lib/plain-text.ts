// One-line plain text out of text someone else wrote (a platform's answer, an admin's body): no
// control character and no line or paragraph separator survives, so a stored name can never start
// a new line in an iCalendar file, a header or a log line, whoever wrote it.

// The C0 and C1 control characters and DEL that are not breaks: nothing a reader would see.
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g
// Line breaks of every kind (CR, LF, VT, FF, NEL, U+2028, U+2029) and tabs: they separate words, so
// each run of them, with the spaces around it, becomes one space.
const BREAKS = /[ ]*[\t\n\v\f\r\u0085\u2028\u2029]+[ ]*/g

/** `text` on one line: breaks and tabs become a space, other control characters go, ends trimmed. */
export function singleLine(text: string): string {
  return text.replace(CONTROLS, '').replace(BREAKS, ' ').trim()
}

/** `value` with every string in it (keys too, at any depth) made single-line; the rest as it was. */
export function singleLineDeep(value: unknown): unknown {
  if (typeof value === 'string') return singleLine(value)
  if (Array.isArray(value)) return value.map(singleLineDeep)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [singleLine(key), singleLineDeep(item)]),
    )
  }
  return value
}
