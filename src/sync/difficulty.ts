// The one place that decides which difficulty a platform's contest kind implies (or none).
import type { Difficulty } from '../contests/schemas.ts'

export const CODEFORCES_DIVISIONS = [
  'div1',
  'div2',
  'div3',
  'div4',
  'div1+div2',
  'educational',
  'global',
] as const
export type CodeforcesDivision = (typeof CODEFORCES_DIVISIONS)[number]

export const CODECHEF_DIVISIONS = ['div1', 'div2', 'div3', 'div4'] as const
export type CodechefDivision = (typeof CODECHEF_DIVISIONS)[number]

/**
 * Codeforces rates by division: Div. 4 is for ratings below 1400, Div. 3 below 1600, Div. 2 and
 * Educational rounds (rated for Div. 2) below 2100, combined Div. 1 + Div. 2 and Global rounds
 * mix everyone with a hard top end, Div. 1 is for 1900 and above.
 */
export const CODEFORCES_DIFFICULTY: Record<CodeforcesDivision, Difficulty> = {
  div4: 'BEGINNER',
  div3: 'EASY',
  div2: 'MEDIUM',
  educational: 'MEDIUM',
  'div1+div2': 'HARD',
  global: 'HARD',
  div1: 'EXPERT',
}

/** CodeChef's divisions follow the same rating bands as Codeforces's. */
export const CODECHEF_DIFFICULTY: Record<CodechefDivision, Difficulty> = {
  div4: 'BEGINNER',
  div3: 'EASY',
  div2: 'MEDIUM',
  div1: 'EXPERT',
}

/** AHC is a heuristic (optimisation) contest: a difficulty level says nothing about it. */
export const ATCODER_DIFFICULTY: Record<'ABC' | 'ARC' | 'AGC' | 'AHC', Difficulty | undefined> = {
  ABC: 'EASY',
  ARC: 'HARD',
  AGC: 'EXPERT',
  AHC: undefined,
}

/** Weekly and biweekly rounds share one format: four problems from easy to hard. */
export const LEETCODE_DIFFICULTY: Record<'WEEKLY' | 'BIWEEKLY', Difficulty> = {
  WEEKLY: 'MEDIUM',
  BIWEEKLY: 'MEDIUM',
}

export function codeforcesDifficulty(division: CodeforcesDivision | undefined) {
  return division ? CODEFORCES_DIFFICULTY[division] : undefined
}

/** A CodeChef contest open to several divisions has no single level, so it gets none. */
export function codechefDifficulty(division: CodechefDivision | undefined) {
  return division ? CODECHEF_DIFFICULTY[division] : undefined
}
