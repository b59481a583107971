// The registry: every platform the catalogue follows, one line each. The API's enumerations,
// names and links, settings, the seed and the stand-ins all derive from this list.
import { atcoder } from './atcoder/index.ts'
import { codechef } from './codechef/index.ts'
import { code360 } from './code360/index.ts'
import { codeforces } from './codeforces/index.ts'
import { codeforcesGym } from './codeforces-gym/index.ts'
import { codingame } from './codingame/index.ts'
import type { PlatformModule } from './define.ts'
import { dmoj } from './dmoj/index.ts'
import { geeksforgeeks } from './geeksforgeeks/index.ts'
import { hackerearth } from './hackerearth/index.ts'
import { hackerrank } from './hackerrank/index.ts'
import { icpc } from './icpc/index.ts'
import { kaggle } from './kaggle/index.ts'
import { kattis } from './kattis/index.ts'
import { leetcode } from './leetcode/index.ts'
import { leetcodeCn } from './leetcode-cn/index.ts'
import { luogu } from './luogu/index.ts'
import { metaHackerCup } from './meta-hacker-cup/index.ts'
import { nowcoder } from './nowcoder/index.ts'
import { topcoder } from './topcoder/index.ts'
import { toph } from './toph/index.ts'
import { yukicoder } from './yukicoder/index.ts'

/**
 * In the order pages list them: the four of the first release, the platforms with a source of
 * their own, then the long tail that only clist.by lists.
 */
export const PLATFORM_MODULES = [
  codeforces,
  leetcode,
  codechef,
  atcoder,
  codeforcesGym,
  leetcodeCn,
  yukicoder,
  dmoj,
  luogu,
  nowcoder,
  hackerearth,
  geeksforgeeks,
  code360,
  hackerrank,
  topcoder,
  kattis,
  toph,
  codingame,
  kaggle,
  metaHackerCup,
  icpc,
] as const

type Module = (typeof PLATFORM_MODULES)[number]
export type Platform = Module['id']
export type TypesByPlatform = { [M in Module as M['id']]: M['types'] }
export type ContestType = Module['types'][number]

export const PLATFORMS = PLATFORM_MODULES.map((m) => m.id) as unknown as readonly [
  Platform,
  ...Platform[],
]

export const TYPES_BY_PLATFORM = Object.fromEntries(
  PLATFORM_MODULES.map((m) => [m.id, m.types]),
) as TypesByPlatform

/** Every contest type once, in registry order (several platforms share CF, WEEKLY, OTHER...). */
export const CONTEST_TYPES = [...new Set(PLATFORM_MODULES.flatMap((m) => m.types))] as [
  ContestType,
  ...ContestType[],
]

/** Each type in words; where platforms share a type, the first one's words. */
export const CONTEST_TYPE_NAMES = Object.fromEntries(
  [...PLATFORM_MODULES].reverse().flatMap((m) => Object.entries(m.typeNames)),
) as Record<ContestType, string>

const BY_ID = new Map<string, PlatformModule>(PLATFORM_MODULES.map((m) => [m.id, m]))

export function platformModule(id: Platform): PlatformModule {
  return BY_ID.get(id)!
}

export function isPlatform(value: string): value is Platform {
  return BY_ID.has(value)
}

/** The platform's name as it writes it; an unknown id (an old row) is shown as it is. */
export function platformName(id: string): string {
  return BY_ID.get(id)?.name ?? id
}

/** The platform's own list of contests, for a contest stored without a link. */
export function platformContestsUrl(id: string): string | undefined {
  return BY_ID.get(id)?.contestsUrl
}
