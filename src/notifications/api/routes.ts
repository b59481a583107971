// The notifications router mounted at /notifications: history, admin and the snooze link together.
import { createRouter } from '../../http/router.ts'
import { notificationAdminRoutes } from './admin-routes.ts'
import { historyRoutes } from './history-routes.ts'
import { snoozeRoutes } from './snooze-routes.ts'

export const notificationRoutes = createRouter()
  .route('/', notificationAdminRoutes)
  .route('/', historyRoutes)
  // The snooze link of reminders: signed, so it needs no sign-in.
  .route('/', snoozeRoutes)
