// Codeforces Gym: scheduled gym contests (official mirrors, camps, Universal Cup stages) from the
// same contest.list API with gym=true, and their final standings (results.ts).
import {
  fetchContestList,
  CODEFORCES_TYPE_NAMES,
  CODEFORCES_TYPES,
  shiftContestList,
} from '../codeforces/contest-list.ts'
import { definePlatform } from '../define.ts'
import type { SourceRequest } from '../source.ts'
import { codeforcesGymResults } from './results.ts'

export function fetchCodeforcesGym(request: SourceRequest) {
  return fetchContestList('codeforces-gym', request)
}

export const codeforcesGym = definePlatform({
  id: 'codeforces-gym',
  name: 'Codeforces Gym',
  homeUrl: 'https://codeforces.com/gyms',
  contestsUrl: 'https://codeforces.com/gyms',
  types: CODEFORCES_TYPES,
  typeNames: CODEFORCES_TYPE_NAMES,
  source: {
    setting: 'CODEFORCES_API_URL',
    defaultUrl: 'https://codeforces.com/api',
    fetch: fetchCodeforcesGym,
    fixtures: [
      {
        method: 'GET',
        path: '/contest.list?gym=true',
        file: 'fixtures/contest-list-gym.json',
        contentType: 'application/json',
        shift: shiftContestList,
      },
    ],
  },
  clist: {
    resource: 'codeforces.com/gyms',
    contest(entry) {
      const id = /^https?:\/\/codeforces\.com\/gym\/(\d+)\/?$/.exec(entry.href)?.[1]
      return id ? { platformId: id, type: 'ICPC' } : undefined
    },
  },
  results: codeforcesGymResults,
})
