// A five-field cron matcher (minute hour day month weekday, UTC) for driving Cron Triggers locally.
// Supports *, numbers, lists, ranges and steps: what Cloudflare's Cron Triggers accept in practice.

const FIELDS = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12 },
  { min: 0, max: 6 },
]

function matchesField(expr, value, { min, max }) {
  return expr.split(',').some((part) => {
    const [range, stepText] = part.split('/')
    const step = stepText ? Number(stepText) : 1
    let [from, to] = range === '*' ? [min, max] : range.split('-').map(Number)
    if (to === undefined) to = stepText ? max : from
    return value >= from && value <= to && (value - from) % step === 0
  })
}

/** True when `cron` fires at the minute of `date` (UTC). */
export function cronMatches(cron, date) {
  const parts = cron.trim().split(/\s+/)
  if (parts.length !== 5) throw new Error(`Unsupported cron expression "${cron}"`)
  const values = [
    date.getUTCMinutes(),
    date.getUTCHours(),
    date.getUTCDate(),
    date.getUTCMonth() + 1,
    date.getUTCDay(),
  ]
  return parts.every((part, i) => matchesField(part, values[i], FIELDS[i]))
}

/** The cron expressions of wrangler.toml's [triggers] section. */
export function cronsOf(wranglerToml) {
  const match = wranglerToml.match(/^\s*crons\s*=\s*\[([^\]]*)\]/m)
  return match ? [...match[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]) : []
}
