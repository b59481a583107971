// ICPC: the World Finals and the contests clist lists with them, through clist.by alone.
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'

export const icpc = definePlatform({
  id: 'icpc',
  name: 'ICPC',
  homeUrl: 'https://icpc.global',
  contestsUrl: 'https://icpc.global/worldfinals',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'icpc.global',
    // The link is the current season's schedule page, shared from one year to the next, so no
    // contest id can be read from it: clist's own is the one that stays put.
    contest: (entry) => longTailContest(entry, undefined),
  },
})
