// The browser's time zone that a web sign-up carries (the page's script fills a hidden field), kept
// as the new account's zone, so quiet hours and digests start out in the person's own hours. The
// API's sign-up keeps its default, UTC (docs/decisions.md, D115).
import { z } from '@hono/zod-openapi'
import { currentZoneName } from '../../lib/time-zones.ts'
import { canonicalTimeZone } from '../../users/preferences.ts'
import { SignupForm } from './auth-forms.ts'

/** IANA's longest names are about 30 characters; anything much longer is not a zone. */
const MAX_ZONE_LENGTH = 64

/**
 * The API's sign-up body and the browser's zone. A zone that is missing, repeated or not text
 * never refuses the form: the account keeps the default instead.
 */
export const WebSignupForm = SignupForm.extend({
  timeZone: z.string().optional().catch(undefined),
})

/**
 * The zone to keep for a submitted `value`: a real IANA zone in its spelling and under its current
 * name (Chromium sends Asia/Calcutta for Asia/Kolkata), or undefined for nothing or anything else.
 */
export function signupTimeZone(value: string | undefined): string | undefined {
  const submitted = value?.trim()
  if (!submitted || submitted.length > MAX_ZONE_LENGTH) return undefined
  const zone = canonicalTimeZone(submitted)
  return zone && currentZoneName(zone)
}
