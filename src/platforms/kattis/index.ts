// Kattis (open.kattis.com): listed through clist.by alone.
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'

// "https://open.kattis.com/contests/q8k2vd": the short key Kattis gives each contest.
const CONTEST = /^https?:\/\/open\.kattis\.com\/contests\/([\w-]+)\/?$/

export const kattis = definePlatform({
  id: 'kattis',
  name: 'Kattis',
  homeUrl: 'https://open.kattis.com',
  contestsUrl: 'https://open.kattis.com/contests',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'open.kattis.com',
    contest: (entry) => longTailContest(entry, CONTEST.exec(entry.href)?.[1]),
  },
})
