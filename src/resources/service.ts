// The intelligence service as the resource routes use it: one client per env, a 503 when it is
// not configured, and its failures turned into the API's errors.
import { settings, type Env } from '../env.ts'
import { ApiError } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import {
  createIntelligenceClient,
  IntelligenceError,
  type IntelligenceClient,
} from './intelligence-client.ts'

const clients = new WeakMap<object, IntelligenceClient | null>()

/** The client for INTELLIGENCE_URL, or undefined when the setting is absent. */
export function intelligenceClient(env: Env): IntelligenceClient | undefined {
  let client = clients.get(env)
  if (client === undefined) {
    const url = settings(env).INTELLIGENCE_URL
    client = url ? createIntelligenceClient(url) : null
    clients.set(env, client)
  }
  return client ?? undefined
}

export function requireIntelligence(env: Env): IntelligenceClient {
  const client = intelligenceClient(env)
  if (!client) throw new ApiError(503, 'Intelligence service is not configured')
  return client
}

/** Runs a call, answering a failure as 503 (unreachable), 502 (bad answer), 400/404/409 (judged). */
export async function callIntelligence<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (reason) {
    const error = IntelligenceError.from(reason)
    log.error('intelligence-call-failed', { code: error.code, error: error.message })
    throw error.toApiError()
  }
}

/**
 * How many resources the service holds (the admin statistics), or undefined when it cannot say:
 * not configured, down or failing. Statistics of the rest of the platform still answer then.
 */
export async function countResources(env: Env): Promise<number | undefined> {
  const client = intelligenceClient(env)
  if (!client) return undefined
  try {
    const page = await client.listResources({ pageSize: 1 })
    return page.totalCount
  } catch (reason) {
    const error = IntelligenceError.from(reason)
    log.error('resource-count-failed', { code: error.code })
    return undefined
  }
}
