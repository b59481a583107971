// LeetCode China (力扣, leetcode.cn): the same weekly and biweekly rounds on China's own site and
// clock, from its GraphQL API (the LeetCode source's shape on another host).
import { definePlatform } from '../define.ts'
import {
  fetchContests,
  graphqlFixture,
  LEETCODE_TYPE_NAMES,
  LEETCODE_TYPES,
  leetcodeClistContest,
} from '../leetcode/graphql.ts'
import type { SourceRequest } from '../source.ts'
import { leetcodeCnResults } from './results.ts'

export function fetchLeetcodeCn(request: SourceRequest) {
  return fetchContests('leetcode-cn', request)
}

export const leetcodeCn = definePlatform({
  id: 'leetcode-cn',
  name: 'LeetCode China',
  homeUrl: 'https://leetcode.cn',
  contestsUrl: 'https://leetcode.cn/contest/',
  types: LEETCODE_TYPES,
  typeNames: LEETCODE_TYPE_NAMES,
  source: {
    setting: 'LEETCODE_CN_URL',
    defaultUrl: 'https://leetcode.cn',
    fetch: fetchLeetcodeCn,
    fixtures: [
      graphqlFixture('fixtures/contest-upcoming.json', {
        operationName: 'contestUpcomingContests',
      }),
    ],
  },
  clist: { resource: 'leetcode.cn', contest: leetcodeClistContest },
  results: leetcodeCnResults,
})
