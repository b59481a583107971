// The HTTP answer of a feed: iCalendar text with its media type.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'

export const ICS_TYPE = 'text/calendar; charset=utf-8'

export function icsResponse(
  c: Context<AppEnv>,
  text: string,
  headers: Record<string, string> = {},
) {
  return c.body(text, 200, { 'Content-Type': ICS_TYPE, ...headers })
}
