// Admin webhook endpoints: manage endpoints and their secrets, read deliveries, send a test event.
import { z } from '@hono/zod-openapi'
import { createDb } from '../db/client.ts'
import { currentUser } from '../http/auth.ts'
import { badRequest } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { errorResponse, json, jsonBody, MessageSchema } from '../lib/openapi.ts'
import { pagination } from '../lib/pagination.ts'
import { webhookConfig } from './config.ts'
import { findDelivery, listDeliveries } from './deliveries.ts'
import { emitToEndpoint } from './emit.ts'
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from './endpoints.ts'
import { TEST_EVENT, type WebhookEvent } from './events.ts'
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryPageSchema,
  DeliverySchema,
  UpdateWebhookBody,
  WebhookIdParam,
  WebhookSchema,
  WebhookWithSecretSchema,
} from './schemas.ts'
import { toApiDelivery, toApiWebhook } from './serialize.ts'
import { adminRoute, createRouter } from '../http/router.ts'

const tags = ['Webhooks (admin)']
const invalid = errorResponse('Validation failed (message is an array of strings)')
const missing = errorResponse('No webhook endpoint has that id')

const create = adminRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Add an endpoint; the answer carries its signing secret, shown only this once',
  request: jsonBody(CreateWebhookBody),
  responses: {
    201: json(WebhookWithSecretSchema, 'The new endpoint with its secret'),
    400: errorResponse('Invalid body, or a URL that is not public https'),
  },
})

const list = adminRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Every endpoint, newest first',
  responses: { 200: json(z.array(WebhookSchema), 'The endpoints') },
})

const get = adminRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One endpoint',
  request: { params: WebhookIdParam },
  responses: {
    200: json(WebhookSchema, 'The endpoint'),
    400: invalid,
    404: missing,
  },
})

const update = adminRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change events, description or enabled; re-enabling clears the failure state',
  request: { params: WebhookIdParam, ...jsonBody(UpdateWebhookBody) },
  responses: {
    200: json(WebhookSchema, 'The endpoint'),
    400: invalid,
    404: missing,
  },
})

const remove = adminRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete an endpoint and its delivery history',
  request: { params: WebhookIdParam },
  responses: { 200: json(MessageSchema, 'Deleted'), 400: invalid, 404: missing },
})

const rotate = adminRoute({
  method: 'post',
  path: '/{id}/rotate-secret',
  tags,
  summary: 'Replace the signing secret at once; the new one is shown only in this answer',
  request: { params: WebhookIdParam },
  responses: {
    200: json(WebhookWithSecretSchema, 'The endpoint with its new secret'),
    400: invalid,
    404: missing,
  },
})

const deliveries = adminRoute({
  method: 'get',
  path: '/{id}/deliveries',
  tags,
  summary: 'Deliveries to an endpoint, newest first, with attempts and the last outcome',
  request: { params: WebhookIdParam, query: DeliveriesQuery },
  responses: {
    200: json(DeliveryPageSchema, 'A page of deliveries'),
    400: invalid,
    404: missing,
  },
})

const test = adminRoute({
  method: 'post',
  path: '/{id}/test',
  tags,
  summary: 'Queue a webhook.test event to the endpoint, delivered like any other event',
  request: { params: WebhookIdParam },
  responses: {
    202: json(DeliverySchema, 'The queued delivery; follow it in the deliveries list'),
    400: errorResponse('Invalid id, or the endpoint is disabled'),
    404: missing,
  },
})

export const webhookRoutes = createRouter()

webhookRoutes
  .openapi(create, async (c) => {
    const now = Date.now()
    const db = createDb(c.env.DB)
    const config = webhookConfig(c.env)
    const made = await createEndpoint(db, config, c.req.valid('json'), currentUser(c).sub, now)
    return c.json({ ...toApiWebhook(made.row), secret: made.secret }, 201)
  })
  .openapi(list, async (c) => {
    const rows = await listEndpoints(createDb(c.env.DB))
    return c.json(rows.map(toApiWebhook), 200)
  })
  .openapi(get, async (c) => {
    const row = await findEndpoint(createDb(c.env.DB), c.req.valid('param').id)
    return c.json(toApiWebhook(row), 200)
  })
  .openapi(update, async (c) => {
    const db = createDb(c.env.DB)
    const row = await updateEndpoint(db, c.req.valid('param').id, c.req.valid('json'), Date.now())
    return c.json(toApiWebhook(row), 200)
  })
  .openapi(remove, async (c) => {
    await deleteEndpoint(createDb(c.env.DB), c.req.valid('param').id)
    return c.json({ message: 'Webhook endpoint deleted successfully' }, 200)
  })
  .openapi(rotate, async (c) => {
    const db = createDb(c.env.DB)
    const made = await rotateSecret(db, webhookConfig(c.env), c.req.valid('param').id, Date.now())
    return c.json({ ...toApiWebhook(made.row), secret: made.secret }, 200)
  })
  .openapi(deliveries, async (c) => {
    const db = createDb(c.env.DB)
    const { id } = c.req.valid('param')
    const filter = c.req.valid('query')
    await findEndpoint(db, id)
    const { rows, total } = await listDeliveries(db, id, filter)
    const page = pagination(total, filter.limit, filter.offset, rows.length)
    return c.json({ data: rows.map(toApiDelivery), pagination: page }, 200)
  })
  .openapi(test, async (c) => {
    const now = Date.now()
    const db = createDb(c.env.DB)
    const endpoint = await findEndpoint(db, c.req.valid('param').id)
    if (!endpoint.enabled) throw badRequest('Webhook endpoint is disabled; enable it first')
    // A fresh occurrence each time: every test request is a new event.
    const event: WebhookEvent = {
      type: TEST_EVENT,
      subject: endpoint.id,
      occurrence: newId(now),
      data: { endpointId: endpoint.id, message: 'A test event from the Contest Alert Service' },
    }
    const deliveryId = await emitToEndpoint(c.env, endpoint.id, event, now)
    const row = await findDelivery(db, deliveryId)
    return c.json(toApiDelivery(row!), 202)
  })
