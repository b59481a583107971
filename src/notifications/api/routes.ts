// The notifications router mounted at /notifications: history and admin endpoints together.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from '../../app-env.ts'
import { notificationAdminRoutes } from './admin-routes.ts'
import { historyRoutes } from './history-routes.ts'

export const notificationRoutes = new OpenAPIHono<AppEnv>()
  .route('/', notificationAdminRoutes)
  .route('/', historyRoutes)
