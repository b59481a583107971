// Phone verification endpoints under /users/phone: send a WhatsApp code to the account's number,
// and check it. Mounted at /users/phone by the app.
import { z } from '@hono/zod-openapi'
import { createRouter, signedInRoute } from '../http/router.ts'
import { authConfig } from './config.ts'
import { code } from './schemas.ts'
import { createDb } from '../db/client.ts'
import { currentUser } from '../http/auth.ts'
import { FAILURE_BUDGETS, failureBudget, signedInAccount } from '../http/failure-budget.ts'
import { rateLimit, RULES } from '../http/rate-limit.ts'
import { errorResponse, json, jsonBody } from '../lib/openapi.ts'
import { toIso } from '../lib/time.ts'
import { refuseNumber } from './phone-send-limits.ts'
import { confirmPhoneCode, requestPhoneCode } from './phone-verification.ts'

const tags = ['Users']
const common = {
  404: errorResponse('User not found'),
  429: errorResponse('Too many requests'),
}

const PhoneCodeSentSchema = z
  .object({ message: z.string(), expiresAt: z.string() })
  .openapi('PhoneCodeSent')

const PhoneVerifyBody = z.strictObject({ code }).openapi('PhoneVerify')

const PhoneVerifiedSchema = z
  .object({ message: z.string(), phoneNumber: z.string(), phoneVerified: z.boolean() })
  .openapi('PhoneVerified')

const sendCode = signedInRoute({
  method: 'post',
  path: '/verification',
  tags,
  summary: 'Send a 6-digit code over WhatsApp to the account’s phone number (10 minutes)',
  middleware: [rateLimit(RULES.phoneCodeSend), rateLimit(RULES.phoneCodeSendDaily)] as const,
  responses: {
    200: json(PhoneCodeSentSchema, 'Code sent'),
    400: errorResponse('No phone number, or one WhatsApp cannot reach'),
    409: errorResponse('The number is already verified'),
    502: errorResponse('The WhatsApp provider refused or failed'),
    503: errorResponse('WhatsApp delivery is not configured'),
    ...common,
  },
})

const verify = signedInRoute({
  method: 'post',
  path: '/verify',
  tags,
  summary: 'Verify the account’s phone number with the code sent to it',
  // The daily budget across codes: each new code brings 3 fresh attempts.
  middleware: [
    rateLimit(RULES.phoneCodeCheck),
    failureBudget(FAILURE_BUDGETS.codeCheck, signedInAccount),
  ] as const,
  request: {
    ...jsonBody(PhoneVerifyBody),
  },
  responses: {
    200: json(PhoneVerifiedSchema, 'Verified'),
    400: errorResponse('Invalid input, no phone number, or an invalid or expired code'),
    ...common,
  },
})

export const phoneRoutes = createRouter()

phoneRoutes
  .openapi(sendCode, async (c) => {
    const deps = { env: c.env, db: createDb(c.env.DB), codeKey: await authConfig(c.env).codeKey }
    const result = await requestPhoneCode(deps, currentUser(c).sub, Date.now())
    // The 429 declared above, built (untyped) by the limiter's shared answer.
    if ('limited' in result) return refuseNumber(c, result.limited) as never
    const message = 'A verification code was sent to your phone number over WhatsApp'
    return c.json({ message, expiresAt: toIso(result.expiresAt) }, 200)
  })
  .openapi(verify, async (c) => {
    const deps = { db: createDb(c.env.DB), codeKey: await authConfig(c.env).codeKey }
    const { code } = c.req.valid('json')
    const phoneNumber = await confirmPhoneCode(deps, currentUser(c).sub, code, Date.now())
    const message = 'Phone number verified successfully'
    return c.json({ message, phoneNumber, phoneVerified: true }, 200)
  })
