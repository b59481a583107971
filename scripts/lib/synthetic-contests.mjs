// Deterministic synthetic contests for benchmarks: realistic names, types and times per platform.

const TYPES = {
  codeforces: ['CF', 'CF', 'CF', 'ICPC', 'IOI'],
  leetcode: ['WEEKLY', 'BIWEEKLY'],
  codechef: ['STARTERS', 'STARTERS', 'LONG', 'COOK_OFF', 'LUNCH_TIME'],
  atcoder: ['ABC', 'ABC', 'ARC', 'AGC', 'AHC'],
}
const DIFFICULTIES = ['BEGINNER', 'EASY', 'MEDIUM', 'HARD', 'EXPERT', null]
const WORDS = [
  'Round',
  'Educational',
  'Global',
  'Weekly',
  'Biweekly',
  'Starters',
  'Beginner',
  'Regular',
  'Grand',
  'Heuristic',
  'Div. 1',
  'Div. 2',
  'Div. 3',
  'Cup',
  'Challenge',
  'Open',
]

/** Mulberry32: a tiny seeded generator, so every run benchmarks the same catalogue. */
function random(seed) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function* syntheticContests(count, now, seed = 42) {
  const rand = random(seed)
  const pick = (list) => list[Math.floor(rand() * list.length)]
  const platforms = Object.keys(TYPES)
  for (let i = 0; i < count; i++) {
    const platform = platforms[i % platforms.length]
    // Spread over a year around now, mostly in the past as real catalogues are.
    const startTime = Math.round(now + (rand() * 365 - 300) * 86_400_000)
    const durationMinutes = pick([90, 105, 120, 150, 180, 240, 14400])
    const name = `${pick(WORDS)} ${pick(WORDS)} ${platform} ${i}`
    yield {
      id: (Math.floor(now / 1000).toString(16) + i.toString(16).padStart(16, '0')).slice(0, 24),
      platform_id: `b${i}`,
      name,
      platform,
      type: pick(TYPES[platform]),
      start_time: startTime,
      end_time: startTime + durationMinutes * 60_000,
      duration_minutes: durationMinutes,
      description: rand() < 0.5 ? `${pick(WORDS)} contest with ${pick(WORDS)} problems` : null,
      difficulty: pick(DIFFICULTIES),
      participant_count: Math.floor(rand() * 30000),
    }
  }
}
