// Zod schemas of the auth endpoints: request bodies (strict) and the responses they render.
import { z } from '@hono/zod-openapi'
import { nameField, phoneField, ProfileSchema } from '../users/schemas.ts'

const MAX_PASSWORD = 128

export const emailField = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'email must be at most 254 characters long' })
  .email({ error: 'email must be an email' })
  .openapi({ example: 'ada@example.com' })

/** Rules for a password being set; sign-in only needs a string. */
const newPassword = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .min(8, { error: `${field} must be at least 8 characters long` })
    .max(MAX_PASSWORD, { error: `${field} must be at most ${MAX_PASSWORD} characters long` })
    .openapi({ example: 'correct horse battery staple' })

const givenPassword = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .min(1, { error: `${field} should not be empty` })
    .max(1024, { error: `${field} must be at most 1024 characters long` })

export const code = z
  .string({ error: 'code must be a string' })
  .regex(/^\d{6}$/, { error: 'code must be a 6-digit string' })
  .openapi({ example: '042917' })

export const SignupBody = z
  .strictObject({
    email: emailField,
    password: newPassword('password'),
    name: nameField,
    phoneNumber: phoneField.optional(),
  })
  .openapi('Signup')

export const SigninBody = z
  .strictObject({
    email: z
      .string({ error: 'email must be a string' })
      .trim()
      .toLowerCase()
      .min(1, { error: 'email should not be empty' })
      .max(254, { error: 'email must be at most 254 characters long' })
      .openapi({ example: 'ada@example.com' }),
    password: givenPassword('password'),
  })
  .openapi('Signin')

export const VerifyEmailBody = z.strictObject({ email: emailField, code }).openapi('VerifyEmail')

export const EmailBody = z.strictObject({ email: emailField }).openapi('EmailOnly')

export const RefreshBody = z
  .strictObject({
    refreshToken: z
      .string({ error: 'refreshToken must be a string' })
      .min(1, { error: 'refreshToken should not be empty' })
      .max(512, { error: 'refreshToken must be at most 512 characters long' }),
  })
  .openapi('Refresh')

export const ResetPasswordBody = z
  .strictObject({ email: emailField, code, newPassword: newPassword('newPassword') })
  .openapi('ResetPassword')

export const ChangePasswordBody = z
  .strictObject({
    currentPassword: givenPassword('currentPassword'),
    newPassword: newPassword('newPassword'),
  })
  .openapi('ChangePassword')

export const AuthResultSchema = z
  .object({ user: ProfileSchema, accessToken: z.string(), refreshToken: z.string() })
  .openapi('AuthResult')

export const CodeDeliverySchema = z
  .object({
    sent: z.boolean(),
    expiresAt: z.string().optional(),
    reason: z.string().optional(),
  })
  .openapi('CodeDelivery')

export const SignupResultSchema = AuthResultSchema.extend({
  emailVerification: CodeDeliverySchema,
}).openapi('SignupResult')
