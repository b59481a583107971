// Codeforces: rounds from the contest.list API (gym=false), and their results (results.ts).
import { definePlatform } from '../define.ts'
import {
  CODEFORCES_TYPE_NAMES,
  CODEFORCES_TYPES,
  fetchCodeforces,
  shiftContestList,
} from './contest-list.ts'
import { codeforcesResults } from './results.ts'

export const codeforces = definePlatform({
  id: 'codeforces',
  name: 'Codeforces',
  homeUrl: 'https://codeforces.com',
  contestsUrl: 'https://codeforces.com/contests',
  types: CODEFORCES_TYPES,
  typeNames: CODEFORCES_TYPE_NAMES,
  source: {
    setting: 'CODEFORCES_API_URL',
    defaultUrl: 'https://codeforces.com/api',
    fetch: fetchCodeforces,
    fixtures: [
      {
        method: 'GET',
        path: '/contest.list?gym=false',
        file: 'fixtures/codeforces-contest-list.json',
        contentType: 'application/json',
        shift: shiftContestList,
      },
    ],
  },
  clist: {
    resource: 'codeforces.com',
    contest(entry) {
      const id = /^https?:\/\/codeforces\.com\/contests?\/(\d+)\/?$/.exec(entry.href)?.[1]
      // clist gives no Codeforces type; the name tells the division, and ICPC- or IOI-style
      // rounds are rare enough that CF is the right guess until the own source answers again.
      return id ? { platformId: id, type: 'CF' } : undefined
    },
  },
  results: codeforcesResults,
  volatileMetadata: ['relativeTimeSeconds'],
})
