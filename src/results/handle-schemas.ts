// Zod schemas of /users/handles, /users/friends, /users/result-preferences and /users/results: a
// link's body, a handle as the API shows it (with its proof instructions while unproven), a
// verification's method and a submission challenge, a rating history, a page of recent results.
import { z } from '@hono/zod-openapi'
import { PLATFORMS } from '../platforms/registry.ts'
import { PaginationSchema } from '../lib/pagination.ts'
import { idParam, intInRange, MAX_OFFSET, oneOf } from '../lib/validation.ts'
import { MAX_RESULTS_PAGE } from './recent.ts'

const MAX_HANDLE = 64

// Every judge's handles are letters, digits and a few signs (Codeforces: _ and -, AtCoder: _,
// LeetCode: _ and -); holding to them keeps a handle safe to put in a judge's URL as it is.
const handle = z
  .string({ error: 'handle must be a string' })
  .trim()
  .min(1, { error: 'handle must not be empty' })
  .max(MAX_HANDLE, { error: `handle must be at most ${MAX_HANDLE} characters long` })
  .regex(/^[A-Za-z0-9_.-]+$/, {
    error: 'handle must hold only letters, digits, dots, hyphens and underscores',
  })
  .openapi({ example: 'tourist', maxLength: MAX_HANDLE })

export const HandleLinkBody = z
  .strictObject({ platform: oneOf('platform', PLATFORMS), handle })
  .openapi('HandleLink', { example: { platform: 'codeforces', handle: 'tourist' } })

export const HandleIdParam = idParam('handle')

const timestamp = z.string().openapi({ example: '2026-12-02T07:00:00.000Z' })

// POST /users/handles/{id}/verify: the token in the profile unless the body names the submission.
export const PROOF_METHODS = ['token', 'submission'] as const

export const VerifyBody = z
  .strictObject({ method: oneOf('method', PROOF_METHODS).optional() })
  .openapi('HandleVerify', { example: { method: 'submission' } })

export const ChallengeSchema = z
  .object({
    method: z.literal('submission'),
    problem: z.object({
      contestId: z.number().int().openapi({ example: 4 }),
      index: z.string().openapi({ example: 'A' }),
      name: z.string().openapi({ example: 'Watermelon' }),
      url: z.string().openapi({ example: 'https://codeforces.com/problemset/problem/4/A' }),
    }),
    verdict: z.string().openapi({
      description: 'The verdict the submission must get, as the judge names it',
      example: 'COMPILATION_ERROR',
    }),
    instruction: z.string().openapi({
      example:
        'Submit a compilation error to problem 4A (Watermelon) at https://codeforces.com/problemset/problem/4/A before Sun, 22 Nov 2026, 12:05 UTC, then check the proof',
    }),
    issuedAt: timestamp.openapi({ description: 'Only a submission made after this counts' }),
    expiresAt: timestamp.openapi({
      description: 'The deadline: only a submission made before this counts',
    }),
    checkUntil: timestamp.openapi({
      description: 'A check still finds a submission made in time until then',
    }),
    expired: z.boolean().openapi({
      description: 'True once no check can prove with it: ask for a new challenge',
    }),
  })
  .openapi('HandleChallenge')

const ProofSchema = z
  .object({
    token: z.string().nullable().openapi({
      description: 'What to place in the field; null once expired or taken back',
      example: 'cas-k7mx2pqr9t',
    }),
    where: z.string().openapi({ example: 'First name (Settings > Social)' }),
    editUrl: z.string().openapi({ example: 'https://codeforces.com/settings/social' }),
    expiresAt: timestamp.nullable(),
    expired: z.boolean().openapi({
      description: 'True when the token no longer proves: POST /users/handles again for a new one',
    }),
    challenge: ChallengeSchema.nullable().openapi({
      description:
        'The submission challenge asked last (POST /users/handles/{id}/challenge); null without one or on a judge that offers none',
    }),
  })
  .openapi('HandleProof')

export const HandleSchema = z
  .object({
    id: z.string(),
    platform: z.string(),
    handle: z.string().openapi({ description: 'As the judge spells it once proven' }),
    state: z.enum(['unproven', 'proven']),
    provenAt: timestamp.nullable(),
    rating: z.number().int().nullable(),
    proof: ProofSchema.nullable().openapi({ description: 'How to prove it; null once proven' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Handle')

const JudgeSchema = z
  .object({
    platform: z.string(),
    name: z.string(),
    where: z.string().openapi({ description: 'Where the proof token goes; empty without a proof' }),
    editUrl: z
      .string()
      .openapi({ description: 'The judge’s page of that field; empty without one' }),
    source: z.enum(['judge', 'clist']).openapi({
      description: 'Results read from the judge itself, or from clist.by’s statistics',
    }),
    own: z.boolean().openapi({
      description: 'Own handles can be linked and proven here; false: friends only (clist.by)',
    }),
    submissionProof: z.boolean().openapi({
      description:
        'Own handles here can also be proven by a submission (POST /users/handles/{id}/challenge)',
    }),
    enabled: z.boolean().openapi({
      description: 'Results are read now; false for clist.by while CLIST_API_KEY is not set',
    }),
  })
  .openapi('ResultsJudge')

export const HandleListSchema = z
  .object({
    handles: z.array(HandleSchema),
    limit: z.number().int().openapi({ description: 'Own handles an account may link' }),
    judges: z.array(JudgeSchema).openapi({ description: 'The judges a handle can be linked on' }),
  })
  .openapi('HandleList')

export const FriendSchema = z
  .object({ id: z.string(), platform: z.string(), handle: z.string(), createdAt: timestamp })
  .openapi('Friend')

export const FriendListSchema = z
  .object({ friends: z.array(FriendSchema), limit: z.number().int() })
  .openapi('FriendList')

const TitledSchema = {
  title: z.string().optional().openapi({ example: 'Expert' }),
  colour: z.string().optional().openapi({ example: '#0000ff' }),
}

export const HandleHistorySchema = z
  .object({
    id: z.string(),
    platform: z.string(),
    handle: z.string(),
    points: z.array(
      z.object({
        contestName: z.string(),
        platformId: z.string().optional(),
        time: timestamp,
        rank: z.number().int().optional(),
        oldRating: z.number().int(),
        newRating: z.number().int(),
        delta: z.number().int(),
        ...TitledSchema,
      }),
    ),
    current: z.object({ rating: z.number().int(), ...TitledSchema }).nullable(),
  })
  .openapi('HandleHistory')

const boolean = (field: string) =>
  z
    .custom<boolean>((v) => typeof v === 'boolean', { error: `${field} must be a boolean value` })
    .openapi({ type: 'boolean' })

export const ResultPreferencesSchema = z
  .object({
    ownResults: z.boolean().openapi({ description: 'Alerts of the account’s proven handles' }),
    friendResults: z.boolean().openapi({ description: 'One message per contest about friends' }),
  })
  .openapi('ResultPreferences')

export const ResultPreferencesBody = z
  .strictObject({
    ownResults: boolean('ownResults').optional(),
    friendResults: boolean('friendResults').optional(),
  })
  .openapi('ResultPreferencesUpdate', { example: { friendResults: true } })

// GET /users/results: a page of at most MAX_RESULTS_PAGE by offset, as the other lists page
// (lib/pagination.ts); any other query key is refused.
export const ResultsQuery = z.strictObject({
  limit: intInRange('limit', 1, MAX_RESULTS_PAGE, 20),
  offset: intInRange('offset', 0, MAX_OFFSET, 0),
})

const rating = z.number().int().nullable()

export const ResultSchema = z
  .object({
    contest: z.object({
      id: z.string(),
      name: z.string().openapi({ example: 'Codeforces Round 1000 (Div. 2)' }),
      platform: z.string().openapi({ example: 'codeforces' }),
      startTime: timestamp,
      url: z.string().optional(),
    }),
    handleId: z.string(),
    handle: z.string().openapi({ example: 'tourist' }),
    rated: z.boolean(),
    rank: z.number().int().nullable(),
    participants: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Participants the judge counted; null when it does not say' }),
    solved: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Null when the judge does not say' }),
    oldRating: rating,
    newRating: rating,
    delta: rating.openapi({ example: 59 }),
    titleChange: z
      .object({ from: z.string().nullable(), to: z.string() })
      .nullable()
      .openapi({ description: 'The judge’s title, when this contest changed it' }),
  })
  .openapi('Result')

export const ResultPageSchema = z
  .object({ data: z.array(ResultSchema), pagination: PaginationSchema })
  .openapi('ResultPage')
