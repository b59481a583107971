// LeetCode China (力扣, leetcode.cn): the same weekly and biweekly rounds on China's own site and
// clock, from its GraphQL API (the LeetCode source's shape on another host).
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  fetchContests,
  LEETCODE_TYPE_NAMES,
  LEETCODE_TYPES,
  leetcodeSlugOf,
  leetcodeType,
} from '../leetcode/graphql.ts'
import type { SourceRequest } from '../source.ts'

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
      {
        method: 'POST',
        path: '/graphql',
        file: 'fixtures/contest-upcoming.json',
        contentType: 'application/json',
        shift: shiftJson({ seconds: ['startTime'] }),
      },
    ],
  },
  clist: {
    resource: 'leetcode.cn',
    contest(entry) {
      const slug = leetcodeSlugOf(entry.href)
      const type = slug && leetcodeType(entry.event, slug)
      return type ? { platformId: slug, type } : undefined
    },
  },
})
