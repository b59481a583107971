// CodinGame: its challenges (bot programming contests), listed through clist.by alone.
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'

// "https://www.codingame.com/contests/winter-challenge-2026": the challenge's public id.
const CONTEST = /^https?:\/\/(?:www\.)?codingame\.com\/contests\/([\w-]+)\/?$/

export const codingame = definePlatform({
  id: 'codingame',
  name: 'CodinGame',
  homeUrl: 'https://www.codingame.com',
  contestsUrl: 'https://www.codingame.com/contests',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'codingame.com',
    contest: (entry) => longTailContest(entry, CONTEST.exec(entry.href)?.[1]),
  },
})
