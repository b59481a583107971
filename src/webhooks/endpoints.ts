// Webhook endpoints in D1: create, read, change, delete and rotate the signing secret.
import { and, count, desc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { webhookEndpoints } from '../db/schema.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import type { WebhookConfig } from './config.ts'
import type { EndpointRow } from './rows.ts'
import type { CreateWebhook, UpdateWebhook } from './schemas.ts'
import { newSigningSecret, openSecretOf, sealSecret } from './secret.ts'
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

/**
 * While JWT_SECRET rotates (JWT_SECRET_PREVIOUS set): seals again under the current secret every
 * signing secret still sealed under the previous one, so removing the previous secret later
 * leaves none unreadable. At most MAX_ENDPOINTS rows; a row changed meanwhile is left to the
 * next run. Returns how many were sealed again.
 */
export async function resealEndpointSecrets(db: Db, config: WebhookConfig, now: number) {
  if (!config.previousRootSecret) return 0
  const rows = await db
    .select({ id: webhookEndpoints.id, sealed: webhookEndpoints.secretCiphertext })
    .from(webhookEndpoints)
  let resealed = 0
  for (const row of rows) {
    const opened = await openSecretOf(config, row.id, row.sealed).catch(() => undefined)
    // Under neither secret (sealed before an earlier rotation): its deliveries fail and log in
    // the consumer; a rotation of the endpoint's secret is its cure, not a failed run every 30 min.
    if (!opened?.underPrevious) continue
    const { secret } = opened
    const changed = await db
      .update(webhookEndpoints)
      .set({
        secretCiphertext: await sealSecret(config.rootSecret, row.id, secret),
        updatedAt: now,
      })
      .where(
        and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secretCiphertext, row.sealed)),
      )
    resealed += changed.meta.changes
  }
  return resealed
}
