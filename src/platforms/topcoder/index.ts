// TopCoder: its SRMs and marathon matches, listed through clist.by alone.
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'

// Marathon matches and challenges link to their challenge page, named by a UUID; SRMs link to
// the shared events page, so they keep clist's id.
const CHALLENGE =
  /^https?:\/\/(?:www\.)?topcoder\.com\/challenges\/([0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})\/?$/

export const topcoder = definePlatform({
  id: 'topcoder',
  name: 'TopCoder',
  homeUrl: 'https://www.topcoder.com',
  contestsUrl: 'https://www.topcoder.com/challenges',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'topcoder.com',
    contest: (entry) => longTailContest(entry, CHALLENGE.exec(entry.href)?.[1]),
  },
})
