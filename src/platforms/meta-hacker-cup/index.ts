// Meta Hacker Cup: its rounds, listed through clist.by alone (Meta's own schedule is behind a
// GraphQL API that needs tokens scraped from the page).
import { longTailContest, LONG_TAIL_TYPE_NAMES, LONG_TAIL_TYPES } from '../clist/long-tail.ts'
import { definePlatform } from '../define.ts'

// "https://www.facebook.com/codingcompetitions/hacker-cup/2026/round-1": season and round.
const ROUND =
  /^https?:\/\/(?:www\.)?facebook\.com\/codingcompetitions\/hacker-cup\/(\d{4})\/([\w-]+)\/?$/

export const metaHackerCup = definePlatform({
  id: 'meta-hacker-cup',
  name: 'Meta Hacker Cup',
  homeUrl: 'https://www.facebook.com/codingcompetitions/hacker-cup',
  contestsUrl: 'https://www.facebook.com/codingcompetitions/hacker-cup',
  types: LONG_TAIL_TYPES,
  typeNames: LONG_TAIL_TYPE_NAMES,
  clist: {
    resource: 'facebook.com/codingcompetitions/hacker-cup',
    contest(entry) {
      const round = ROUND.exec(entry.href)
      return longTailContest(entry, round ? `${round[1]}-${round[2]}` : undefined)
    },
  },
})
