// Minutes as a person types them: an amount and a unit (minutes, hours, days), for the reminder
// times and the duration filters. The API stores minutes; the page shows the largest exact unit.

export const UNITS = ['minutes', 'hours', 'days'] as const
export type Unit = (typeof UNITS)[number]

const MINUTES_PER: Record<Unit, number> = { minutes: 1, hours: 60, days: 24 * 60 }

/** 1440 is 1 day to the form, 90 stays 90 minutes: no fractions to type or read. */
export function splitMinutes(minutes: number): { amount: string; unit: Unit } {
  for (const unit of ['days', 'hours'] as const) {
    if (minutes % MINUTES_PER[unit] === 0) {
      return { amount: String(minutes / MINUTES_PER[unit]), unit }
    }
  }
  return { amount: String(minutes), unit: 'minutes' }
}

export const toMinutes = (amount: number, unit: Unit) => amount * MINUTES_PER[unit]

/** "1 day", "2 hours", "90 minutes": how a stored duration reads in a sentence. */
export function durationWords(minutes: number): string {
  const { amount, unit } = splitMinutes(minutes)
  return `${amount} ${amount === '1' ? unit.slice(0, -1) : unit}`
}
