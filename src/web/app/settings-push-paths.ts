// Where the settings page's push buttons send their requests (the page's markup and its routes
// share them, so the two cannot drift apart).
export const PUSH_PATHS = {
  subscribe: '/app/settings/push/subscribe',
  unsubscribe: '/app/settings/push/unsubscribe',
  test: '/app/settings/push/test',
} as const
