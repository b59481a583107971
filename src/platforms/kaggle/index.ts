// Kaggle: its competitions, listed through clist.by alone.
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'
import { DAY_MS } from '../../lib/time.ts'

// "https://www.kaggle.com/competitions/santa-2026" (older links: /c/santa-2026): the slug.
const COMPETITION = /^https?:\/\/(?:www\.)?kaggle\.com\/(?:competitions|c)\/([\w-]+)\/?$/

/**
 * The "Getting Started" competitions (Titanic, Digit Recognizer) stay open for years as practice;
 * a real competition runs for weeks or months, so a year tells them apart without the name.
 */
const LONGEST_COMPETITION_MS = 366 * DAY_MS

export const kaggle = definePlatform({
  id: 'kaggle',
  name: 'Kaggle',
  homeUrl: 'https://www.kaggle.com',
  contestsUrl: 'https://www.kaggle.com/competitions',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'kaggle.com',
    contest(entry) {
      if (entry.endTime - entry.startTime > LONGEST_COMPETITION_MS) return undefined
      return longTailContest(entry, COMPETITION.exec(entry.href)?.[1])
    },
  },
})
