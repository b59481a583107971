// The notifications router mounted at /notifications: history and admin endpoints together.
import { createRouter } from '../../http/router.ts'
import { notificationAdminRoutes } from './admin-routes.ts'
import { historyRoutes } from './history-routes.ts'

export const notificationRoutes = createRouter()
  .route('/', notificationAdminRoutes)
  .route('/', historyRoutes)
