// The layer order of src/: runtime imports point down this list, never up and never sideways
// between features of one layer. `npm run check:layers` (and CI) enforce it with dependency-cruiser.
// Type-only imports are erased at build time and do not count.

// dependency-cruiser 17 parses every TypeScript file with swc's `syntax: 'typescript'` and no
// `tsx` (a TODO of theirs), so JSX in src/web/*.tsx would be a syntax error. Its swc parser is
// this very module object, so turning `tsx` on for .tsx files here reaches it.
const swc = require('@swc/core')
const parseFileSync = swc.parseFileSync
swc.parseFileSync = (path, options) =>
  parseFileSync(path, path.endsWith('.tsx') ? { ...options, tsx: true } : options)

/**
 * Lowest first. Each entry is one layer: folders under src/ (or top-level files) it holds. A
 * channel's folder (channels/<id>/) holds parts of three layers: its plug-in and provider client in
 * `channels`, its linking flow and bot (routes, commands) in `flow/` with the channel flows, and
 * its part of the web app in `web/` with the web app.
 */
const CHANNEL_FLOW = 'channels/[^/]+/flow'
const CHANNEL_WEB = 'channels/[^/]+/web'
const LAYERS = [
  { name: 'core', paths: ['lib', 'ports', 'env.ts', 'app-env.ts'] },
  { name: 'platform', paths: ['db', 'rate-limit'] },
  // The platform modules and their sources: what each judge is and how its contests are read.
  { name: 'sources', paths: ['platforms'] },
  { name: 'http', paths: ['http'] },
  { name: 'channels', paths: ['channels'], except: [CHANNEL_FLOW, CHANNEL_WEB] },
  { name: 'contests', paths: ['contests'] },
  { name: 'users', paths: ['users'] },
  { name: 'auth', paths: ['auth'] },
  { name: 'webhooks', paths: ['webhooks'] },
  // The service's record of itself: cron runs and incidents (platforms' and its own), and the
  // telling of its own incidents; below the sync that records platform incidents in it.
  { name: 'status', paths: ['status'] },
  // Judge handles and their results: below the features that tell people (notifications,
  // communities), which read its SQL fragments; it takes their alert functions as arguments.
  { name: 'results', paths: ['results'] },
  {
    name: 'features',
    paths: ['notifications', 'sync', 'resources', 'calendar', 'communities'],
    siblings: false,
  },
  { name: 'channel flows', paths: [CHANNEL_FLOW] },
  { name: 'account', paths: ['account'] },
  { name: 'admin', paths: ['admin'] },
  { name: 'web', paths: ['web', CHANNEL_WEB] },
  { name: 'jobs', paths: ['jobs'] },
  { name: 'entries', paths: ['app.ts', 'index.ts'] },
]

const pattern = (path) => `^src/${path.replace(/\./g, '\\.')}${path.endsWith('.ts') ? '$' : '/'}`
const anyOf = (paths) => `(${paths.map(pattern).join('|')})`

const upward = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flatMap((l) => l.paths)
  if (above.length === 0) return []
  return [
    {
      name: `${layer.name}-imports-upward`,
      comment: `${layer.name} may import only layers below it: ${LAYERS.slice(0, i)
        .map((l) => l.name)
        .join(', ')}`,
      severity: 'error',
      from: { path: anyOf(layer.paths), ...(layer.except && { pathNot: anyOf(layer.except) }) },
      to: { path: anyOf(above), dependencyTypesNot: ['type-only'] },
    },
  ]
})

// Features of one layer stand side by side: each may use the layers below, not its neighbours.
const sideways = LAYERS.filter((l) => l.siblings === false).flatMap((layer) =>
  layer.paths.map((path) => ({
    name: `${path}-imports-sibling`,
    comment: `${path} may not import the other features of its layer (${layer.paths.join(', ')})`,
    severity: 'error',
    from: { path: pattern(path) },
    to: {
      path: anyOf(layer.paths.filter((p) => p !== path)),
      dependencyTypesNot: ['type-only'],
    },
  })),
)

// Inside notifications the rooms point one way too: api -> scheduling -> delivery -> kinds, and the
// shared modules at its top import none of them.
const ROOMS = ['kinds', 'delivery', 'scheduling', 'api']
const room = (name) => `^src/notifications/${name}/`
const rooms = [
  ...ROOMS.map((name, i) => ({
    name: `notifications-${name}-imports-upward`,
    comment: `notifications/${name} may import only ${ROOMS.slice(0, i).join(', ') || 'no room'}`,
    severity: 'error',
    from: { path: room(name) },
    to: {
      path: `(${
        ROOMS.slice(i + 1)
          .map(room)
          .join('|') || '^$'
      })`,
    },
  })),
  {
    name: 'notifications-top-imports-a-room',
    comment: 'the shared modules at the top of notifications/ import no room',
    severity: 'error',
    from: { path: '^src/notifications/[^/]+$' },
    to: { path: `(${ROOMS.map(room).join('|')})` },
  },
]

const config = {
  forbidden: [
    ...upward,
    ...sideways,
    ...rooms,
    {
      name: 'outside-the-layers',
      comment: 'every module of src/ belongs to a layer: add a new folder to LAYERS',
      severity: 'error',
      from: { path: '^src/', pathNot: anyOf(LAYERS.flatMap((l) => l.paths)) },
      to: {},
    },
    {
      name: 'no-runtime-cycle',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        circular: true,
        dependencyTypesNot: ['type-only'],
        viaOnly: { dependencyTypesNot: ['type-only'] },
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Generated code, and the platform modules' tests (they sit beside their fixtures, not in the app).
    exclude: { path: '(^src/resources/gen/|\\.test\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    parser: 'swc',
  },
}

// The layers travel with the rules for scripts/import-graph.mjs; not enumerable, since
// dependency-cruiser refuses configuration keys it does not know.
Object.defineProperty(config, 'layers', { value: LAYERS, enumerable: false })
module.exports = config
