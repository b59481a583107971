// Zod schemas of the user endpoints: profile update, admin list, role change, push subscriptions.
import { z } from '@hono/zod-openapi'
import {
  BLOCKABLE_CHANNELS,
  perChannel,
  WEBHOOK_CHANNELS,
  type Channel,
} from '../channels/registry.ts'
import { channelBlocks } from '../db/schema.ts'
import { fromBase64Url } from '../lib/crypto.ts'
import { idParam, oneOf, pagingFields } from '../lib/validation.ts'
import { MAX_DURATION_MINUTES } from '../platforms/contest.ts'
import {
  ALERT_FREQUENCIES,
  canonicalTimeZone,
  MAX_LEAD_MINUTES,
  MAX_LEAD_TIMES,
  MIN_LEAD_MINUTES,
  PLATFORMS,
  type Platform,
} from './preferences.ts'

export const ROLES = ['user', 'admin'] as const

const MAX_NAME = 100
const MAX_PHONE = 32
const MAX_CONTEST_TYPES = 50
const MAX_CONTEST_TYPE_LENGTH = 50
const MAX_EXCLUDE_WORDS = 20
const MAX_EXCLUDE_WORD_LENGTH = 50

// Checks written as refinements keep their sentence exactly as the spec words it.
const boolean = (field: string) =>
  z
    .custom<boolean>((v) => typeof v === 'boolean', { error: `${field} must be a boolean value` })
    .openapi({ type: 'boolean' })

// Control characters (line breaks and tabs among them), line and paragraph separators, and the
// bidirectional overrides that make text read other than it is stored. Joiners (U+200C, U+200D)
// stay: Persian and Indic names need them.
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u

export const nameField = z
  .string({ error: 'name must be a string' })
  .trim()
  .refine((v) => v.length >= 2, { error: 'Name must be at least 2 characters long' })
  .refine((v) => v.length <= MAX_NAME, {
    error: `Name must be at most ${MAX_NAME} characters long`,
  })
  .refine((v) => !UNPRINTABLE.test(v), {
    error: 'Name must be one line without control characters',
  })
  .openapi({ example: 'Ada Lovelace', minLength: 2, maxLength: MAX_NAME })

export const phoneField = z
  .string({ error: 'phoneNumber must be a string' })
  .trim()
  .max(MAX_PHONE, { error: `phoneNumber must be at most ${MAX_PHONE} characters long` })
  .openapi({ example: '+14155550123' })

const platforms = z
  .custom<string[]>((v) => Array.isArray(v), { error: 'platforms must be an array' })
  .refine((v) => v.every((p) => (PLATFORMS as readonly unknown[]).includes(p)), {
    error: 'platforms must contain valid platform names',
  })
  .transform((v) => [...new Set(v)] as Platform[])
  .openapi({ type: 'array', items: { type: 'string', enum: [...PLATFORMS] } })

const contestTypes = z
  .custom<string[]>((v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), {
    error: 'contestTypes must be an array of strings',
  })
  .refine((v) => v.length <= MAX_CONTEST_TYPES, {
    error: `contestTypes must contain no more than ${MAX_CONTEST_TYPES} elements`,
  })
  .refine((v) => v.every((t) => t.length <= MAX_CONTEST_TYPE_LENGTH), {
    error: `each value in contestTypes must be at most ${MAX_CONTEST_TYPE_LENGTH} characters long`,
  })
  .transform((v) => [...new Set(v.map((t) => t.trim()).filter(Boolean))])
  .openapi({ type: 'array', items: { type: 'string' }, example: ['div2', 'educational'] })

const notifyBefore = z
  .number({ error: 'notifyBefore must be a number' })
  .int({ error: 'notifyBefore must be an integer number' })
  .min(1, { error: 'notifyBefore must be between 1 and 168' })
  .max(168, { error: 'notifyBefore must be between 1 and 168' })
  .openapi({ example: 24 })

const leadTimes = z
  .array(
    z
      .number({ error: 'leadTimes must contain numbers' })
      .int({ error: 'leadTimes must contain whole minutes' })
      .min(MIN_LEAD_MINUTES, {
        error: `each lead time must be between ${MIN_LEAD_MINUTES} and ${MAX_LEAD_MINUTES} minutes`,
      })
      .max(MAX_LEAD_MINUTES, {
        error: `each lead time must be between ${MIN_LEAD_MINUTES} and ${MAX_LEAD_MINUTES} minutes`,
      }),
    { error: 'leadTimes must be an array of minutes' },
  )
  .min(1, { error: `leadTimes must hold 1 to ${MAX_LEAD_TIMES} values` })
  .max(MAX_LEAD_TIMES, { error: `leadTimes must hold 1 to ${MAX_LEAD_TIMES} values` })
  .refine((v) => new Set(v).size === v.length, { error: 'leadTimes must not repeat a value' })
  .openapi({ example: [1440, 60, 10] })

const clockTime = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `${field} must be a time as HH:MM` })
    .openapi({ example: field.endsWith('start') ? '23:00' : '07:00' })

const quietHours = z
  .strictObject(
    { start: clockTime('quietHours.start'), end: clockTime('quietHours.end') },
    { error: 'quietHours must be an object with start and end, or null' },
  )
  .refine((q) => q.start !== q.end, { error: 'quietHours must not start and end at the same time' })
  .nullable()

const duration = (field: string) =>
  z
    .number({ error: `${field} must be a number of minutes` })
    .int({ error: `${field} must be whole minutes` })
    .min(1, { error: `${field} must be between 1 and ${MAX_DURATION_MINUTES} minutes` })
    .max(MAX_DURATION_MINUTES, {
      error: `${field} must be between 1 and ${MAX_DURATION_MINUTES} minutes`,
    })
    .nullable()

const excludeWords = z
  .array(
    z
      .string({ error: 'filters.excludeWords must contain strings' })
      .trim()
      .min(1, { error: 'filters.excludeWords must not contain an empty word' })
      .max(MAX_EXCLUDE_WORD_LENGTH, {
        error: `each excluded word must be at most ${MAX_EXCLUDE_WORD_LENGTH} characters long`,
      }),
    { error: 'filters.excludeWords must be an array of words' },
  )
  .max(MAX_EXCLUDE_WORDS, {
    error: `filters.excludeWords must contain no more than ${MAX_EXCLUDE_WORDS} words`,
  })
  .transform((v) => [...new Set(v.map((w) => w.toLowerCase()))])
  .openapi({ example: ['unrated', 'kotlin'] })

const filters = z
  .strictObject(
    {
      minDuration: duration('filters.minDuration').optional(),
      maxDuration: duration('filters.maxDuration').optional(),
      excludeWords: excludeWords.optional(),
    },
    { error: 'filters must be an object' },
  )
  .refine((f) => f.minDuration == null || f.maxDuration == null || f.minDuration <= f.maxDuration, {
    error: 'filters.minDuration must not exceed filters.maxDuration',
  })

const timezone = z
  .string({ error: 'timezone must be a string' })
  .refine((v) => canonicalTimeZone(v) !== undefined, {
    error: 'timezone must be a valid IANA time zone',
  })
  .transform((v) => canonicalTimeZone(v) as string)
  .openapi({ type: 'string', example: 'Europe/Berlin' })

// An object field replaces the stored value (spec), so channels left out are switched off.
const notificationChannels = z
  .strictObject(
    perChannel((_, id) => boolean(`notificationChannels.${id}`).optional()),
    { error: 'notificationChannels must be an object' },
  )
  .transform((c) => perChannel((_, id) => c[id] ?? false))

// Only the form here: which hosts may be reached depends on the settings, so the profile update
// checks the rest (each channel's `webhook.problem`), as the push subscriptions do.
const webhookUrlFields = Object.fromEntries(
  WEBHOOK_CHANNELS.map(({ label, destination: { field, webhook } }) => [
    field,
    z
      .string({ error: `${field} must be a string or null` })
      .max(webhook.maxLength, {
        error: `${field} must be at most ${webhook.maxLength} characters long`,
      })
      .nullable()
      .optional()
      .openapi({
        description: `A ${label} channel webhook (${webhook.form}); null removes it`,
        example: webhook.example,
      }),
  ]),
) as Record<
  (typeof WEBHOOK_CHANNELS)[number]['destination']['field'],
  z.ZodOptional<z.ZodNullable<z.ZodString>>
>

export const PreferencesUpdateSchema = z
  .strictObject(
    {
      platforms: platforms.optional(),
      alertFrequency: oneOf('alertFrequency', ALERT_FREQUENCIES).optional(),
      contestTypes: contestTypes.optional(),
      notificationChannels: notificationChannels.optional(),
      notifyBefore: notifyBefore.optional(),
      leadTimes: leadTimes.optional(),
      quietHours: quietHours.optional(),
      filters: filters.optional(),
      timezone: timezone.optional(),
      ...webhookUrlFields,
    },
    { error: 'preferences must be an object' },
  )
  // Both set the lead times; with two answers the update could only guess which one was meant.
  .refine((p) => p.notifyBefore === undefined || p.leadTimes === undefined, {
    error: 'send either notifyBefore or leadTimes, not both',
  })

/** Read-only fields (email, password, role, isActive, ...) are unknown keys here, hence refused. */
export const ProfileUpdateBody = z
  .strictObject({
    name: nameField.optional(),
    phoneNumber: phoneField.nullable().optional(),
    preferences: PreferencesUpdateSchema.optional(),
  })
  .openapi('ProfileUpdate')

export type ProfileUpdate = z.infer<typeof ProfileUpdateBody>

export const UserIdParam = idParam('user')

export const ListUsersQuery = z.object({
  ...pagingFields(),
})

export const RoleBody = z.strictObject({ role: oneOf('role', ROLES) }).openapi('RoleChange')

function isWebUrl(value: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

function decodesTo(value: string, check: (bytes: Uint8Array) => boolean): boolean {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return false
  try {
    return check(fromBase64Url(value.replace(/=+$/, '')))
  } catch {
    return false
  }
}

const endpoint = z
  .string({ error: 'endpoint must be a string' })
  .max(2048, { error: 'endpoint must be at most 2048 characters long' })
  // Only the form here: which hosts and schemes may be reached depends on the settings, so
  // registration checks the rest (channels/push-target.ts), and removal needs no more.
  .refine(isWebUrl, { error: 'endpoint must be an https URL' })
  .openapi({ example: 'https://fcm.googleapis.com/fcm/send/abc123' })

export const PushSubscriptionBody = z
  .strictObject({
    endpoint,
    // Browsers' PushSubscription.toJSON() includes it; it is accepted and not needed.
    expirationTime: z.number().nullable().optional(),
    keys: z.strictObject(
      {
        // RFC 8291: an uncompressed P-256 point (65 bytes) and a 16-byte authentication secret.
        // The lengths of those bytes in base64 with padding, checked before anything reads
        // the text, so a key as long as the body costs no more than a right one.
        p256dh: z
          .custom<string>(
            (v) =>
              typeof v === 'string' &&
              v.length <= 88 &&
              decodesTo(v, (b) => b.length === 65 && b[0] === 4),
            { error: 'keys.p256dh must be a base64url-encoded P-256 public key' },
          )
          .openapi({ type: 'string', maxLength: 88 }),
        auth: z
          .custom<string>(
            (v) => typeof v === 'string' && v.length <= 24 && decodesTo(v, (b) => b.length === 16),
            { error: 'keys.auth must be a base64url-encoded 16-byte secret' },
          )
          .openapi({ type: 'string', maxLength: 24 }),
      },
      { error: 'keys must be an object with p256dh and auth' },
    ),
  })
  .openapi('PushSubscriptionInput')

export const PushEndpointBody = z.strictObject({ endpoint }).openapi('PushSubscriptionRemoval')

export const PushRenewalBody = z
  .strictObject({
    old: PushSubscriptionBody,
    subscription: PushSubscriptionBody,
  })
  .openapi('PushSubscriptionRenewal')

const timestamp = z.string().openapi({ example: '2026-11-22T14:35:00.000Z' })

export const PreferencesSchema = z
  .object({
    platforms: z.array(z.enum(PLATFORMS)),
    alertFrequency: z.enum(ALERT_FREQUENCIES),
    contestTypes: z.array(z.string()),
    notificationChannels: z.object(perChannel(() => z.boolean())),
    notifyBefore: z.number(),
    leadTimes: z
      .array(z.number())
      .openapi({ description: 'Minutes before the start, longest first' }),
    quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
    filters: z.object({
      minDuration: z.number().nullable(),
      maxDuration: z.number().nullable(),
      excludeWords: z.array(z.string()),
    }),
    timezone: z.string(),
  })
  .openapi('Preferences')

export const UserViewSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    phoneNumber: z.string().optional(),
    preferences: PreferencesSchema,
    isActive: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('User')

const ChannelBlockSchema = z.object({
  blocked: z.literal(true),
  reason: z.enum(channelBlocks.reason.enumValues),
  since: timestamp,
})

const ChannelStatusSchema = z
  .object(
    Object.fromEntries(BLOCKABLE_CHANNELS.map((c) => [c, ChannelBlockSchema.optional()])) as Record<
      Channel,
      z.ZodOptional<typeof ChannelBlockSchema>
    >,
  )
  .openapi('ChannelStatus', {
    description:
      'Channels the service turned off (a hard bounce, a complaint, expired push ' +
      'subscriptions); turning the channel on in notificationChannels clears its entry',
  })

const webhookViews = Object.fromEntries(
  WEBHOOK_CHANNELS.map((m) => [
    m.id,
    z
      .object({ webhookSet: z.boolean(), maskedWebhookUrl: z.string().nullable() })
      .optional()
      .openapi({
        example: {
          webhookSet: true,
          maskedWebhookUrl: m.destination.webhook.mask(m.destination.webhook.example),
        },
      }),
  ]),
) as Record<
  (typeof WEBHOOK_CHANNELS)[number]['id'],
  z.ZodOptional<
    z.ZodObject<{ webhookSet: z.ZodBoolean; maskedWebhookUrl: z.ZodNullable<z.ZodString> }>
  >
>

export const ProfileSchema = UserViewSchema.extend({
  role: z.enum(ROLES),
  emailVerified: z.boolean(),
  // True once a WhatsApp code proved the current number; WhatsApp is used only then.
  phoneVerified: z.boolean(),
  lastLogin: timestamp.optional(),
  // Only GET /users/profile reads the blocks; auth responses leave it out.
  channelStatus: ChannelStatusSchema.optional(),
  // Only GET /users/profile: whether a Telegram chat is linked (never the chat id).
  telegram: z.object({ linked: z.boolean() }).optional(),
  // Only GET /users/profile: per webhook channel (discord, slack), whether a webhook is set and
  // its URL without the token.
  ...webhookViews,
}).openapi('Profile')

export const AdminUserSchema = UserViewSchema.extend({ role: z.enum(ROLES) }).openapi('AdminUser')

export const ProfileUpdateResultSchema = UserViewSchema.pick({
  id: true,
  email: true,
  name: true,
  phoneNumber: true,
  preferences: true,
}).openapi('ProfileUpdateResult')

export const UserListSchema = z
  .object({
    users: z.array(AdminUserSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  })
  .openapi('UserList')

export const RoleChangeResultSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    message: z.string(),
  })
  .openapi('RoleChangeResult')

export const PushSubscriptionSchema = z
  .object({ id: z.string(), endpoint: z.string(), createdAt: timestamp, updatedAt: timestamp })
  .openapi('PushSubscription')
