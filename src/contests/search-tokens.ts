// The words FTS5's `unicode61 remove_diacritics 2` tokenizer makes of a text, worked out in
// JavaScript for the characters where the two are known to agree, so the catalogue can be searched
// in memory with the same matches and ranks as the full-text index (contests/search-index.ts).
//
// SQLite's tokenizer has its own Unicode tables, older than the runtime's and irregular in places
// (it keeps the marks of some Latin letters, folds µ to μ and ς to σ, and counts unassigned code
// points as letters). Rather than copy those tables, only the ranges below are handled here; a
// text with any other character has no tokens here, and the caller asks SQLite instead.
// test/search-memory.test.ts and deno/sqlite-d1.test.ts check every code point of these ranges
// against the SQLite of D1 and of node:sqlite.

/** Code points, inclusive, whose tokenizing here matches SQLite's. */
const SAFE_RANGES: readonly [number, number][] = [
  [0x00, 0x7f], // ASCII
  [0xa0, 0x130], // Latin-1 letters and symbols, Latin Extended-A up to İ
  [0x132, 0x17e], // the rest of Latin Extended-A but dotless ı (kept by SQLite) and long ſ
  [0x370, 0x377], // Greek and Coptic, assigned code points only
  [0x37a, 0x37e],
  [0x384, 0x38a],
  [0x38c, 0x38c],
  [0x38e, 0x3a1],
  [0x3a3, 0x3ff],
  [0x400, 0x527], // Cyrillic and its supplement as far as SQLite's tables go
  [0x1e00, 0x1eff], // Latin Extended Additional
  [0x2000, 0x2064], // General Punctuation: spaces, dashes, quotes
  [0x3000, 0x303f], // CJK symbols and punctuation
  [0x3041, 0x3096], // Hiragana
  [0x3099, 0x30ff], // Katakana
  [0x4e00, 0x9fcb], // CJK unified ideographs
  [0xac00, 0xd7a3], // Hangul syllables
  [0xff01, 0xffbe], // Halfwidth and Fullwidth Forms (the （）：of Chinese judges' titles)
  [0xffc2, 0xffc7], // and their assigned code points only
  [0xffca, 0xffcf],
  [0xffd2, 0xffd7],
  [0xffda, 0xffdc],
  [0xffe0, 0xffe6],
  [0xffe8, 0xffee],
]

function isSafe(code: number): boolean {
  if (code < 0x80) return true
  for (const [first, last] of SAFE_RANGES) {
    if (code < first) return false
    if (code <= last) return true
  }
  return false
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u
const MARKS = /\p{M}/gu

// SQLite removes diacritics from Latin letters only.
const isLatin = (code: number) =>
  (code >= 0xc0 && code < 0x250) || (code >= 0x1e00 && code <= 0x1eff)

/** One character as SQLite indexes it: case folded (µ as μ, ς as σ), Latin without its marks. */
function fold(char: string): string {
  const upper = char.toUpperCase()
  // Upper then lower case folds the variant forms; ß becomes SS, so it only takes the lower case.
  const lower = upper.length === char.length ? upper.toLowerCase() : char.toLowerCase()
  if (!isLatin(char.codePointAt(0)!)) return lower
  const base = lower.normalize('NFD').replace(MARKS, '')
  return base.length === 1 ? base : lower
}

const folded = new Map<string, string>()

function foldOnce(char: string): string {
  let result = folded.get(char)
  if (result === undefined) {
    result = fold(char)
    // Bounded by the safe ranges (about 33,700 characters).
    folded.set(char, result)
  }
  return result
}

/**
 * The tokens of a text in order, as FTS5 indexes it, or undefined when the text has a character
 * outside the ranges known to agree with SQLite.
 */
export function tokensOf(text: string): string[] | undefined {
  const tokens: string[] = []
  let token = ''
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code < 0x80) {
      // The common case without a regular expression: letters and digits, lowercased.
      if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) token += char
      else if (code >= 0x41 && code <= 0x5a) token += String.fromCharCode(code + 32)
      else if (token) {
        tokens.push(token)
        token = ''
      }
    } else if (!isSafe(code)) {
      return undefined
    } else if (WORD_CHARACTER.test(char)) {
      token += foldOnce(char)
    } else if (token) {
      tokens.push(token)
      token = ''
    }
  }
  if (token) tokens.push(token)
  return tokens
}
