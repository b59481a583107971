// Webhook endpoints in D1: create, read, change, delete and rotate the signing secret.
import { count, desc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { webhookEndpoints } from '../db/schema.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import type { WebhookConfig } from './config.ts'
import type { EndpointRow } from './rows.ts'
import type { CreateWebhook, UpdateWebhook } from './schemas.ts'
import { newSigningSecret, sealSecret } from './secret.ts'
import { webhookTargetProblem } from './target.ts'

/** Every event fans out to every endpoint in one batch, so their number stays bounded. */
export const MAX_ENDPOINTS = 100

export interface EndpointWithSecret {
  row: EndpointRow
  /** The signing secret in clear; returned to the caller once, never stored so. */
  secret: string
}

export async function createEndpoint(
  db: Db,
  config: WebhookConfig,
  input: CreateWebhook,
  createdBy: string,
  now: number,
): Promise<EndpointWithSecret> {
  const problem = webhookTargetProblem(input.url, config.allowLocalTargets)
  if (problem) throw badRequest([problem])
  const [{ n }] = await db.select({ n: count() }).from(webhookEndpoints)
  if (n >= MAX_ENDPOINTS) throw badRequest(`At most ${MAX_ENDPOINTS} webhook endpoints may exist`)
  const id = newId(now)
  const secret = newSigningSecret()
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id,
      url: input.url,
      description: input.description || null,
      events: input.events,
      secretCiphertext: await sealSecret(config.rootSecret, id, secret),
      enabled: true,
      createdBy,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  return { row, secret }
}

export function listEndpoints(db: Db): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
}

export async function findEndpoint(db: Db, id: string): Promise<EndpointRow> {
  const row = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get()
  if (!row) throw notFound(`Webhook endpoint with ID ${id} not found`)
  return row
}

export async function updateEndpoint(
  db: Db,
  id: string,
  patch: UpdateWebhook,
  now: number,
): Promise<EndpointRow> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(patch.events && { events: patch.events }),
      ...(patch.description !== undefined && { description: patch.description || null }),
      // Re-enabling starts afresh: the failure that disabled the endpoint is forgotten.
      ...(patch.enabled === true && { enabled: true, disabledReason: null, failingSince: null }),
      ...(patch.enabled === false && { enabled: false, disabledReason: 'Disabled by an admin' }),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning()
  if (!row) throw notFound(`Webhook endpoint with ID ${id} not found`)
  return row
}

export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  // Its deliveries go with it (ON DELETE CASCADE); queued messages for them are then dropped.
  const result = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id))
  if (result.meta.changes === 0) throw notFound(`Webhook endpoint with ID ${id} not found`)
}

/** Replaces the secret at once: the next attempt of every pending delivery signs with the new one. */
export async function rotateSecret(
  db: Db,
  config: WebhookConfig,
  id: string,
  now: number,
): Promise<EndpointWithSecret> {
  const secret = newSigningSecret()
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secretCiphertext: await sealSecret(config.rootSecret, id, secret), updatedAt: now })
    .where(eq(webhookEndpoints.id, id))
    .returning()
  if (!row) throw notFound(`Webhook endpoint with ID ${id} not found`)
  return { row, secret }
}
