// Types of the local cron matcher.
export function cronMatches(cron: string, date: Date): boolean
export function cronsOf(wranglerToml: string): string[]
