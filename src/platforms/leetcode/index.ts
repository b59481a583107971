// LeetCode: weekly and biweekly rounds from leetcode.com's GraphQL API, and their results (results.ts).
import { definePlatform } from '../define.ts'
import {
  fetchLeetcode,
  graphqlFixture,
  LEETCODE_TYPE_NAMES,
  LEETCODE_TYPES,
  leetcodeClistContest,
} from './graphql.ts'
import { leetcodeResults } from './results.ts'

export const leetcode = definePlatform({
  id: 'leetcode',
  name: 'LeetCode',
  homeUrl: 'https://leetcode.com',
  contestsUrl: 'https://leetcode.com/contest/',
  types: LEETCODE_TYPES,
  typeNames: LEETCODE_TYPE_NAMES,
  source: {
    setting: 'LEETCODE_API_URL',
    defaultUrl: 'https://leetcode.com',
    fetch: fetchLeetcode,
    fixtures: [
      graphqlFixture('fixtures/leetcode-graphql.json', { operationName: 'contestCatalogue' }),
    ],
  },
  clist: { resource: 'leetcode.com', contest: leetcodeClistContest },
  results: leetcodeResults,
})
