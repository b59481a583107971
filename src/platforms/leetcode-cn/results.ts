// LeetCode China's public results: leetcode.com's module (../leetcode/results.ts) on leetcode.cn,
// whose GraphQL names a handle `userSlug`, reads public profiles through userProfilePublicProfile
// and serves contest histories from its second endpoint, /graphql/noj-go/.
import { z } from 'zod'
import {
  leetcodeResultsFixture,
  leetcodeSiteResults,
  readSchema,
  textFields,
  type SiteConfig,
} from '../leetcode/results.ts'

// As clist.by's module asks it (ranking/management/modules/leetcode.py, get_users_infos), the
// proof's fields only: realName is the profile's 昵称, aboutMe its 个人简介.
const profileSchema = z.object({
  userProfilePublicProfile: z
    .object({
      profile: z.object({
        userSlug: z.string().min(1),
        realName: z.string().nullish(),
        aboutMe: z.string().nullish(),
      }),
    })
    .nullable(),
})

export const LEETCODE_CN_SITE: SiteConfig = {
  platform: 'leetcode-cn',
  origin: 'https://leetcode.cn',
  variable: 'userSlug',
  profile: {
    path: '/graphql',
    operationName: 'userProfilePublicProfile',
    query: `query userProfilePublicProfile($userSlug: String!) {
  userProfilePublicProfile(userSlug: $userSlug) { profile { userSlug realName aboutMe } }
}`,
  },
  readProfile(data) {
    const found = readSchema('leetcode-cn', 'userProfilePublicProfile', profileSchema, data)
    const profile = found.userProfilePublicProfile?.profile
    if (!profile) return null
    return { handle: profile.userSlug, fields: textFields(profile.aboutMe, profile.realName) }
  },
  // clist's module asks /graphql/noj-go/ for these fields; problemsSolved is not among them, and
  // an unknown field would fail the whole query, so leetcode.cn's results carry no solved count.
  // The same field as leetcode.com's, so the walk asks it in the same aliased batches.
  history: {
    path: '/graphql/noj-go/',
    fields: 'attended rating ranking contest { title startTime }',
  },
  where: '个人简介 (About me) or 昵称 (name), on your profile page',
  editUrl: 'https://leetcode.cn/profile/',
}

const fixture = (operation: 'profile' | 'history', handle: string, file: string) =>
  leetcodeResultsFixture(LEETCODE_CN_SITE, operation, handle, file)

export const leetcodeCnResults = leetcodeSiteResults(LEETCODE_CN_SITE, [
  fixture('profile', 'jing-hua', 'profile-jing-hua.json'),
  fixture('profile', 'nobody-here', 'profile-missing.json'),
  fixture('history', 'jing-hua', 'history-jing-hua.json'),
])
