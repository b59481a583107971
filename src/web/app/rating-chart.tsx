// A handle's rating history as a chart drawn on the server: an SVG over the judge's rank colours,
// readable without JavaScript, with the same history as a table for screen readers and for exact
// figures. The SVG scales to its box (viewBox), so it fits a 375 px screen.
import type { RatingPoint, RatingRank } from '../../platforms/results.ts'

const WIDTH = 640
const HEIGHT = 260
const PAD = { left: 48, right: 12, top: 12, bottom: 28 }
/** Rating headroom above and below the history, so the line never touches the frame. */
const MARGIN = 100

/** A stretch of ratings one title covers, within the chart's range. */
export interface RankBand extends RatingRank {
  from: number
  to: number
}

/**
 * The judge's titles over [lo, hi], found by asking `rank` of every rating in it: each judge's
 * module states its thresholds once (rank()), and the chart draws whatever they are.
 */
export function rankBands(
  lo: number,
  hi: number,
  rank: (rating: number) => RatingRank,
): RankBand[] {
  const bands: RankBand[] = []
  for (let rating = lo; rating <= hi; rating++) {
    const here = rank(rating)
    const last = bands.at(-1)
    if (last && last.title === here.title && last.colour === here.colour) last.to = rating
    else bands.push({ ...here, from: rating, to: rating })
  }
  return bands
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

function delta(point: RatingPoint): string {
  const d = point.newRating - point.oldRating
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '0'
}

export function RatingChart({
  label,
  points,
  rank,
}: {
  /** "tourist on Codeforces": the chart's and the table's caption. */
  label: string
  /** Oldest first. */
  points: readonly RatingPoint[]
  rank?: (rating: number) => RatingRank
}) {
  if (points.length === 0) return <p class="note">No rated contest yet.</p>
  const ratings = points.flatMap((p) => [p.newRating, ...(p === points[0] ? [p.oldRating] : [])])
  const lo = Math.max(0, Math.floor((Math.min(...ratings) - MARGIN) / 100) * 100)
  const hi = Math.ceil((Math.max(...ratings) + MARGIN) / 100) * 100
  const first = points[0]!.time
  const last = points.at(-1)!.time
  const plotW = WIDTH - PAD.left - PAD.right
  const plotH = HEIGHT - PAD.top - PAD.bottom
  const x = (time: number) =>
    PAD.left + (last === first ? plotW / 2 : ((time - first) / (last - first)) * plotW)
  const y = (rating: number) => PAD.top + ((hi - rating) / (hi - lo)) * plotH
  // Up to hi - 1: a band starting at the top edge would be a line.
  const bands = rank ? rankBands(lo, hi - 1, rank) : []
  const ticks = [...new Set([lo, ...bands.map((b) => b.from).filter((r) => r > lo), hi])]
  const line = points.map((p) => `${x(p.time).toFixed(1)},${y(p.newRating).toFixed(1)}`).join(' ')
  const titleId = `chart-title-${label.replace(/[^A-Za-z0-9]+/g, '-')}`
  return (
    <figure class="rating-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={titleId}>
          {`Rating of ${label}: ${points.at(-1)!.newRating} after ${points.length} contests`}
        </title>
        {bands.map((b) => (
          <rect
            class="band"
            x={PAD.left}
            width={plotW}
            y={y(b.to + 1)}
            height={Math.max(0, y(b.from) - y(b.to + 1))}
            fill={b.colour}
            fill-opacity="0.3"
          >
            <title>{`${b.title}: ${b.from}–${b.to}`}</title>
          </rect>
        ))}
        {ticks.map((r) => (
          <text class="tick" x={PAD.left - 6} y={y(r) + 4} text-anchor="end">
            {String(r)}
          </text>
        ))}
        <polyline class="rating-line" points={line} fill="none" />
        {points.map((p) => (
          <circle class="rating-point" cx={x(p.time)} cy={y(p.newRating)} r="3.5">
            <title>{`${p.contestName}: ${p.newRating} (${delta(p)})`}</title>
          </circle>
        ))}
        <text class="tick" x={PAD.left} y={HEIGHT - 8}>
          {day(first)}
        </text>
        <text class="tick" x={WIDTH - PAD.right} y={HEIGHT - 8} text-anchor="end">
          {day(last)}
        </text>
      </svg>
      <figcaption>Rating of {label}, oldest contest first in the table below.</figcaption>
      <div class="table-scroll">
        <table class="rating-table">
          <caption class="visually-hidden">Rating history of {label}</caption>
          <thead>
            <tr>
              <th scope="col">Contest</th>
              <th scope="col">Date</th>
              <th scope="col">Rank</th>
              <th scope="col">Rating</th>
              <th scope="col">Change</th>
              {rank && <th scope="col">Title</th>}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr>
                <td>{p.contestName}</td>
                <td>{day(p.time)}</td>
                <td>{p.rank === undefined ? '' : String(p.rank)}</td>
                <td>{String(p.newRating)}</td>
                <td>{delta(p)}</td>
                {rank && <td>{rank(p.newRating).title}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  )
}
