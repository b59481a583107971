// Codeforces Gym's results: a gym's final standings from the Codeforces API it shares with the
// rounds. Gyms have no ratings, so no history and no titles; a handle is a Codeforces account,
// proven the same way.
import {
  codeforcesCurrentHandle,
  codeforcesExactHandles,
  codeforcesGymContestResults,
  codeforcesProof,
  codeforcesResultsRoute,
  CODEFORCES_MIN_INTERVAL_MS,
  RENAME_BATCH,
} from '../codeforces/results.ts'
import type { ResultsModule } from '../results.ts'

export const codeforcesGymResults: ResultsModule = {
  proof: codeforcesProof('codeforces-gym'),
  scope: 'contest',
  minIntervalMs: CODEFORCES_MIN_INTERVAL_MS,
  contestResults: codeforcesGymContestResults,
  // A gym moves no rating: the account's Codeforces history is the codeforces module's.
  history: async () => [],
  // A gym handle is a Codeforces account: renamed with it.
  renames: { batch: RENAME_BATCH, exact: codeforcesExactHandles, current: codeforcesCurrentHandle },
  fixtures: [
    codeforcesResultsRoute('/contest.standings?contestId=106204', 'standings-106204.json'),
  ],
}
