// Zod schemas of the Sign in with Google endpoints: the start and callback queries, the code body.
import { z } from '@hono/zod-openapi'

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .min(1, { error: `${field} should not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters long` })

export const GoogleStartQuery = z
  .strictObject({
    redirect_uri: text('redirect_uri', 2048).openapi({
      description: "The client's URL that receives `code` (or `error`) when the sign-in ends",
      example: 'https://app.example.com/signed-in',
    }),
    state: text('state', 512)
      .optional()
      .openapi({ description: "The client's own value, echoed back to its redirect_uri" }),
  })
  .openapi('GoogleStartQuery')

// Not strict: Google adds parameters of its own (scope, authuser, prompt, hd, iss).
export const GoogleCallbackQuery = z
  .object({
    state: text('state', 512),
    code: text('code', 2048).optional(),
    error: text('error', 256).optional(),
  })
  .openapi('GoogleCallbackQuery')

export const GoogleTokenBody = z
  .strictObject({
    code: text('code', 256).openapi({
      description: 'The one-time code the client received at its redirect_uri (60 seconds)',
    }),
  })
  .openapi('GoogleToken')
