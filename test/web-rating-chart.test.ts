// A handle's rating chart: the SVG over the judge's rank bands, and the same history as a table.
import { describe, expect, it } from 'vitest'
import type { RatingPoint, RatingRank } from '../src/platforms/results.ts'
import { rankBands, RatingChart } from '../src/web/app/rating-chart.tsx'
import { select, selectOne } from './helpers/html.ts'

// Thresholds of the shape a judge's module states (Codeforces' first three titles).
const rank = (rating: number): RatingRank =>
  rating < 1200
    ? { title: 'Newbie', colour: '#808080' }
    : rating < 1400
      ? { title: 'Pupil', colour: '#008000' }
      : { title: 'Specialist', colour: '#03a89e' }

const DAY = 86_400_000
const points: RatingPoint[] = [
  { contestName: 'Round 1', time: 0, rank: 5000, oldRating: 0, newRating: 1100 },
  { contestName: 'Round 2', time: 7 * DAY, rank: 900, oldRating: 1100, newRating: 1290 },
  { contestName: 'Round 3', time: 21 * DAY, rank: 2100, oldRating: 1290, newRating: 1250 },
]

// A component is a function of its props; Hono's element renders with toString().
const render = async (props: Parameters<typeof RatingChart>[0]) =>
  String(await RatingChart(props).toString())

describe('rankBands', () => {
  it('splits a range into the titles rank() gives, each band with its bounds', () => {
    expect(rankBands(1000, 1500, rank).map((b) => [b.title, b.from, b.to])).toEqual([
      ['Newbie', 1000, 1199],
      ['Pupil', 1200, 1399],
      ['Specialist', 1400, 1500],
    ])
  })
})

describe('RatingChart', () => {
  it('draws the bands the history crosses, a point per contest and the line through them', async () => {
    const html = await render({ label: 'alice on Codeforces', points, rank })
    const svg = await selectOne(html, 'figure.rating-chart svg[role="img"]')
    expect(svg.attrs.viewbox).toBe('0 0 640 260')
    const title = await selectOne(html, `svg title#${svg.attrs['aria-labelledby']}`)
    expect(title.text).toBe('Rating of alice on Codeforces: 1250 after 3 contests')
    // 0 (the first contest's old rating) to 1400 with the margin: Newbie and Pupil only.
    expect((await select(html, 'rect.band')).map((b) => b.attrs.fill)).toEqual([
      '#808080',
      '#008000',
    ])
    expect(await select(html, 'circle.rating-point')).toHaveLength(3)
    const line = (await selectOne(html, 'polyline.rating-line')).attrs.points!.split(' ')
    expect(line).toHaveLength(3)
    // Oldest on the left, and a higher rating drawn higher (a smaller y).
    const [a, b] = line.map((xy) => xy.split(',').map(Number))
    expect(a![0]).toBeLessThan(b![0]!)
    expect(b![1]).toBeLessThan(a![1]!)
  })

  it('carries the same history as a table with changes and titles', async () => {
    const html = await render({ label: 'alice on Codeforces', points, rank })
    const rows = await select(html, 'table.rating-table tbody tr')
    expect(rows.map((r) => r.text.replace(/\s+/g, ' ').trim())).toEqual([
      'Round 11970-01-0150001100+1100Newbie',
      'Round 21970-01-089001290+190Pupil',
      'Round 31970-01-2221001250−40Pupil',
    ])
    expect((await select(html, 'table.rating-table th')).map((th) => th.text)).toEqual([
      'Contest',
      'Date',
      'Rank',
      'Rating',
      'Change',
      'Title',
    ])
  })

  it('draws no bands for a judge without titles, and says so when there is no history', async () => {
    const plain = await render({ label: 'bob on DMOJ', points })
    expect(await select(plain, 'rect.band')).toEqual([])
    expect(await select(plain, 'table.rating-table th')).toHaveLength(5)
    const empty = await render({ label: 'carol on AtCoder', points: [], rank })
    expect(await select(empty, 'svg')).toEqual([])
    expect((await selectOne(empty, 'p.note')).text).toBe('No rated contest yet.')
  })
})
