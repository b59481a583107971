// Toph: listed through clist.by alone.
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'

// "https://toph.co/c/criterion-2026-round-7": the contest's slug.
const CONTEST = /^https?:\/\/toph\.co\/c\/([\w-]+)\/?$/

export const toph = definePlatform({
  id: 'toph',
  name: 'Toph',
  homeUrl: 'https://toph.co',
  contestsUrl: 'https://toph.co/contests',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'toph.co',
    contest: (entry) => longTailContest(entry, CONTEST.exec(entry.href)?.[1]),
  },
})
