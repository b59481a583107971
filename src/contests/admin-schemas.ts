// Request schemas of the admin contest writes, with the spec's field rules.
import { z } from '@hono/zod-openapi'
import { singleLine } from '../lib/plain-text.ts'
import { isoDate, oneOf } from '../lib/validation.ts'
import { CONTEST_TYPES, DIFFICULTIES, PLATFORMS, TYPES_BY_PLATFORM } from './schemas.ts'

const text = (field: string, max: number) =>
  z
    .string({ error: () => `${field} must be a string` })
    // As it will be stored (contest-input.ts), so a name of control characters alone is empty.
    .overwrite(singleLine)
    .min(1, { error: () => `${field} should not be empty` })
    .max(max, { error: () => `${field} must be shorter than or equal to ${max} characters` })

const url = (field: string) =>
  z.url({ protocol: /^https?$/, error: () => `${field} must be a URL address` }).max(2048)

const count = (field: string) =>
  z
    .number({ error: () => `${field} must be a number` })
    .int({ error: () => `${field} must be an integer number` })
    .min(0, { error: () => `${field} must not be less than 0` })

const fields = {
  platformId: text('platformId', 100),
  name: text('name', 300),
  platform: oneOf('platform', PLATFORMS),
  type: oneOf('type', CONTEST_TYPES),
  startTime: isoDate('startTime'),
  endTime: isoDate('endTime'),
  description: z
    .string()
    .max(5000, { error: () => 'description must be shorter than or equal to 5000 characters' }),
  websiteUrl: url('websiteUrl'),
  registrationUrl: url('registrationUrl'),
  difficulty: oneOf('difficulty', DIFFICULTIES),
  participantCount: count('participantCount'),
  problemCount: count('problemCount'),
  platformMetadata: z.record(z.string(), z.unknown(), {
    error: () => 'platformMetadata must be an object',
  }),
  isActive: z.boolean({ error: () => 'isActive must be a boolean value' }),
}

/** Rules that involve two fields; shared by create and by an update merged with the stored row. */
export function contestRuleViolations(c: {
  platform: string
  type: string
  startTime: string | number
  endTime: string | number
}): string[] {
  const problems: string[] = []
  const types = TYPES_BY_PLATFORM[c.platform as keyof typeof TYPES_BY_PLATFORM] as readonly string[]
  if (types && !types.includes(c.type)) {
    problems.push(`type must be one of the following values for ${c.platform}: ${types.join(', ')}`)
  }
  if (new Date(c.endTime).getTime() <= new Date(c.startTime).getTime()) {
    problems.push('endTime must be after startTime')
  }
  return problems
}

export const CreateContestBody = z
  .strictObject({
    platformId: fields.platformId,
    name: fields.name,
    platform: fields.platform,
    type: fields.type,
    startTime: fields.startTime,
    endTime: fields.endTime,
    description: fields.description.optional(),
    websiteUrl: fields.websiteUrl.optional(),
    registrationUrl: fields.registrationUrl.optional(),
    difficulty: fields.difficulty.optional(),
    participantCount: fields.participantCount.optional(),
    problemCount: fields.problemCount.optional(),
    platformMetadata: fields.platformMetadata.optional(),
    isActive: fields.isActive.optional(),
  })
  .superRefine((c, ctx) => {
    for (const message of contestRuleViolations(c)) ctx.addIssue({ code: 'custom', message })
  })
  .openapi('CreateContest')

export const BulkCreateBody = z
  .strictObject({
    contests: z
      .array(CreateContestBody)
      .min(1, { error: () => 'contests must contain at least 1 elements' })
      .max(100, { error: () => 'contests must contain no more than 100 elements' }),
  })
  .openapi('BulkCreateContests')

/** Platform and platformId name the contest upstream, so they cannot change. */
export const UpdateContestBody = z
  .strictObject({
    name: fields.name.optional(),
    type: fields.type.optional(),
    startTime: fields.startTime.optional(),
    endTime: fields.endTime.optional(),
    description: fields.description.nullable().optional(),
    websiteUrl: fields.websiteUrl.nullable().optional(),
    registrationUrl: fields.registrationUrl.nullable().optional(),
    difficulty: fields.difficulty.nullable().optional(),
    participantCount: fields.participantCount.nullable().optional(),
    problemCount: fields.problemCount.nullable().optional(),
    platformMetadata: fields.platformMetadata.nullable().optional(),
    isActive: fields.isActive.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    error: 'At least one field must be given',
    // Only for a body that is otherwise valid: an unknown key already explains itself.
    when: (payload) => payload.issues.length === 0,
  })
  .openapi('UpdateContest')

export type CreateContest = z.infer<typeof CreateContestBody>
export type UpdateContest = z.infer<typeof UpdateContestBody>
