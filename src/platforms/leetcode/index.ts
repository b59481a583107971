// LeetCode: weekly and biweekly rounds from leetcode.com's GraphQL API.
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  fetchLeetcode,
  LEETCODE_TYPE_NAMES,
  LEETCODE_TYPES,
  leetcodeSlugOf,
  leetcodeType,
} from './graphql.ts'

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
      {
        method: 'POST',
        path: '/graphql',
        file: 'fixtures/leetcode-graphql.json',
        contentType: 'application/json',
        shift: shiftJson({ seconds: ['startTime'] }),
      },
    ],
  },
  clist: {
    resource: 'leetcode.com',
    contest(entry) {
      const slug = leetcodeSlugOf(entry.href)
      const type = slug && leetcodeType(entry.event, slug)
      return type ? { platformId: slug, type } : undefined
    },
  },
})
