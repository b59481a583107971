// Verifying the account's phone number with a six-digit code sent over WhatsApp: the code is bound
// to the user and to the number it went to, and only a verified number receives notifications.
import { consumeCode, newCode } from './codes.ts'
import {
  sendWhatsAppCode,
  toWhatsAppNumber,
  whatsappProvider,
} from '../channels/whatsapp/cloud-api.ts'
import type { Db } from '../db/client.ts'
import type { UserRow } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import type { WindowResult } from '../ports/rate-limiter.ts'
import { isPhoneVerified, markPhoneVerified } from '../users/phone.ts'
import { hitNumberLimits } from './phone-send-limits.ts'
import { findUser } from '../users/queries.ts'
import { requireProvenAddress } from '../users/destinations.ts'

const PURPOSE = 'verify_phone'
const NO_PHONE = 'The account has no phone number; add one to the profile first'
const UNREACHABLE = 'The phone number cannot receive WhatsApp messages'
const ALREADY_VERIFIED = 'The phone number is already verified'
const WHATSAPP_DISABLED = 'WhatsApp delivery is not configured; no code was sent'
const WHATSAPP_FAILED = 'The WhatsApp message could not be sent; try again later'
const INVALID_CODE = 'Invalid or expired code'

export interface PhoneCodeDeps {
  env: Env
  db: Db
  /** The HMAC key of stored codes (auth/config.ts). */
  codeKey: CryptoKey
}

export type PhoneCodeRequest = { sent: true; expiresAt: number } | { limited: WindowResult[] }

async function liveUser(db: Db, userId: string): Promise<UserRow> {
  const user = await findUser(db, userId)
  if (!user) throw notFound('User not found')
  return user
}

const phoneOf = (user: UserRow) => (user.phoneNumber?.trim() ? user.phoneNumber : undefined)

/**
 * Sends a fresh code to the account's number (replacing any earlier one) unless the number's
 * send limits are spent. The checks come before any paid message: a number, one WhatsApp can
 * reach, not yet verified, and a provider that can send (never a pretended success).
 */
export async function requestPhoneCode(
  deps: PhoneCodeDeps,
  userId: string,
  now: number,
): Promise<PhoneCodeRequest> {
  const user = await liveUser(deps.db, userId)
  requireProvenAddress(user)
  const phone = phoneOf(user)
  if (!phone) throw badRequest(NO_PHONE)
  const digits = toWhatsAppNumber(phone)
  if (!digits) throw badRequest(UNREACHABLE)
  if (isPhoneVerified(user)) throw conflict(ALREADY_VERIFIED)
  if (whatsappProvider(deps.env) === 'none') throw new ApiError(503, WHATSAPP_DISABLED)
  const limited = await hitNumberLimits(deps.env, digits)
  if (limited) return { limited }

  const issued = await newCode(deps.db, deps.codeKey, user.id, PURPOSE, now, phone)
  await issued.statement
  const result = await sendWhatsAppCode(deps.env, phone, issued.code)
  if (!result.ok) {
    log.warn('phone-code-not-sent', { error: result.error })
    throw new ApiError(502, WHATSAPP_FAILED)
  }
  return { sent: true, expiresAt: issued.expiresAt }
}

/**
 * Checks `code` against the account's current number, marks that number verified and returns it.
 * The code was hashed with the number it went to, so after a change of number it no longer
 * matches; the write requires the number unchanged, so a change racing the check cannot slip in.
 */
export async function confirmPhoneCode(
  deps: Omit<PhoneCodeDeps, 'env'>,
  userId: string,
  code: string,
  now: number,
): Promise<string> {
  const user = await liveUser(deps.db, userId)
  const phone = phoneOf(user)
  if (!phone) throw badRequest(NO_PHONE)
  if (!(await consumeCode(deps.db, deps.codeKey, user.id, PURPOSE, code, now, phone))) {
    throw badRequest(INVALID_CODE)
  }
  if (!(await markPhoneVerified(deps.db, user.id, phone, now))) throw badRequest(INVALID_CODE)
  return phone
}
