// A loopback stand-in of the Cloudflare API, enough for `npm run deploy` with the real wrangler
// (CLOUDFLARE_API_BASE_URL=<url>/client/v4): one account's D1 databases (migrations kept as the
// d1_migrations rows wrangler reads and writes), KV namespaces, queues and their consumers, Worker
// uploads (scripts, versions, deployments, secrets, cron schedules, workers.dev), and the Telegram
// Bot API methods the deploy calls. Answers use the API's envelope and error codes; every call is
// recorded. `node scripts/lib/cloudflare-stand-in.mjs` runs one and prints its address.
import { createHash, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import { pathToFileURL } from 'node:url'

const API = '/client/v4'

class ApiError extends Error {
  constructor(status, code, message) {
    super(message)
    this.status = status
    this.code = code
  }
}

const notFound = (code, message) => new ApiError(404, code, message)
const sha256 = (data) => createHash('sha256').update(data).digest('hex')
const hex32 = () => randomUUID().replaceAll('-', '')

function envelope(result, extra = {}) {
  return { success: true, errors: [], messages: [], result, ...extra }
}

/** The state of one account, as a test reads it: plain data, no secrets' values but `secrets`. */
function emptyAccount(accountId, subdomain) {
  return {
    accountId,
    subdomain,
    d1: [],
    kv: [],
    queues: [],
    /** name -> { id, tag, modules, metadata, bindings, secrets, schedules, ... } */
    scripts: {},
  }
}

/**
 * Starts the stand-in on a free loopback port. `token` is the only API token it accepts,
 * `accountId` the only account; `telegramToken` the bot token its Bot API answers to.
 */
export async function startCloudflareStandIn({
  token = 'stand-in-token',
  accountId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  subdomain = 'stand-in',
  telegramToken,
} = {}) {
  const state = emptyAccount(accountId, subdomain)
  const calls = []
  const telegram = { webhook: undefined, commands: [] }
  /** Migration file names whose SQL D1 refuses, as it refuses a statement that fails. */
  const failing = new Set()
  const now = () => new Date().toISOString()

  const account = (id) => {
    if (id !== accountId) throw new ApiError(403, 10000, 'Authentication error')
  }

  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const body = Buffer.concat(chunks)
    const url = new URL(req.url, 'http://stand-in')
    const call = { method: req.method, path: url.pathname, query: url.search, at: Date.now() }
    calls.push(call)
    const send = (status, payload) => {
      call.status = status
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(payload))
    }
    try {
      if (url.pathname.startsWith('/bot')) return send(200, botApi(url.pathname, body, call))
      if (!url.pathname.startsWith(`${API}/`)) throw notFound(7003, 'No route for that URI')
      if (req.headers.authorization !== `Bearer ${token}`) {
        throw new ApiError(403, 10000, 'Authentication error')
      }
      const answer = await route(req.method, url, body, req.headers, call)
      send(200, envelope(answer.result, answer.extra))
    } catch (error) {
      if (!(error instanceof ApiError)) {
        console.error(error)
        error = new ApiError(500, 10013, 'An unknown error has occurred')
      }
      call.error = error.code
      send(error.status, {
        success: false,
        errors: [{ code: error.code, message: error.message }],
        messages: [],
        result: null,
      })
    }
  })

  // The Telegram Bot API: the methods the deploy calls, for the one bot token it knows.
  function botApi(path, body, call) {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(path)
    if (!match || match[1] !== telegramToken) {
      call.status = 401
      return { ok: false, error_code: 401, description: 'Unauthorized' }
    }
    const method = match[2]
    call.bot = method
    const input = body.length > 0 ? JSON.parse(body.toString()) : {}
    if (method === 'setWebhook') {
      telegram.webhook = {
        url: input.url,
        secretToken: input.secret_token,
        allowedUpdates: input.allowed_updates,
      }
      return { ok: true, result: true, description: 'Webhook was set' }
    }
    if (method === 'getWebhookInfo') {
      const hook = telegram.webhook
      return {
        ok: true,
        result: {
          url: hook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: 0,
          ...(hook && { allowed_updates: hook.allowedUpdates }),
        },
      }
    }
    if (method === 'setMyCommands') {
      telegram.commands = input.commands
      return { ok: true, result: true }
    }
    if (method === 'getMyCommands') return { ok: true, result: telegram.commands }
    return { ok: false, error_code: 404, description: 'Not Found' }
  }

  const paged = (items, url, defaultPerPage) => {
    const perPage = Number(url.searchParams.get('per_page') ?? defaultPerPage)
    const page = Number(url.searchParams.get('page') ?? 1)
    const slice = items.slice((page - 1) * perPage, page * perPage)
    return {
      result: slice,
      extra: {
        result_info: {
          page,
          per_page: perPage,
          count: slice.length,
          total_count: items.length,
          total_pages: Math.max(1, Math.ceil(items.length / perPage)),
        },
      },
    }
  }

  const json = (body) => (body.length > 0 ? JSON.parse(body.toString()) : {})

  async function route(method, url, body, headers, call) {
    const parts = url.pathname
      .slice(API.length + 1)
      .split('/')
      .map(decodeURIComponent)
    const at = (...pattern) =>
      parts.length === pattern.length && pattern.every((p, i) => p === '*' || p === parts[i])

    if (method === 'GET' && at('user')) {
      return { result: { id: hex32(), email: 'deployer@example.test' } }
    }
    if (method === 'GET' && at('memberships')) {
      return {
        result: [{ id: hex32(), account: { id: accountId, name: 'Stand-in account' } }],
        extra: { result_info: { page: 1, per_page: 20, count: 1, total_count: 1 } },
      }
    }
    if (parts[0] !== 'accounts') throw notFound(7003, 'No route for that URI')
    account(parts[1])
    const rest = parts.slice(2)
    const under = (...pattern) =>
      rest.length === pattern.length && pattern.every((p, i) => p === '*' || p === rest[i])

    // workers.dev
    if (method === 'GET' && under('workers', 'subdomain')) {
      if (!state.subdomain) throw notFound(10007, 'This account has no workers.dev subdomain')
      return { result: { subdomain: state.subdomain } }
    }

    // D1
    if (under('d1', 'database')) {
      if (method === 'GET') return paged(state.d1.map(d1Listing), url, 1000)
      if (method === 'POST') {
        const { name } = json(body)
        if (state.d1.some((d) => d.name === name)) {
          throw new ApiError(400, 7502, 'A database with that name already exists')
        }
        const db = { uuid: randomUUID(), name, created_at: now(), migrations: [], tables: false }
        state.d1.push(db)
        call.created = { d1: name }
        return { result: { uuid: db.uuid, name, created_in_region: 'WEUR' } }
      }
    }
    if (under('d1', 'database', '*') && method === 'GET') {
      return { result: d1Listing(d1ById(rest[2])) }
    }
    if (under('d1', 'database', '*', 'query') && method === 'POST') {
      return { result: d1Query(d1ById(rest[2]), json(body).sql, call) }
    }

    // KV
    if (under('storage', 'kv', 'namespaces')) {
      if (method === 'GET') return paged(state.kv, url, 20)
      if (method === 'POST') {
        const { title } = json(body)
        if (state.kv.some((n) => n.title === title)) {
          throw new ApiError(
            400,
            10014,
            'a namespace with this account ID and title already exists',
          )
        }
        const namespace = { id: hex32(), title, supports_url_encoding: true }
        state.kv.push(namespace)
        call.created = { kv: title }
        return { result: namespace }
      }
    }

    // Queues
    if (under('queues')) {
      if (method === 'GET') {
        const names = url.searchParams.getAll('name')
        const found = names.length
          ? state.queues.filter((q) => names.includes(q.queue_name))
          : state.queues
        return paged(found.map(queueListing), url, 100)
      }
      if (method === 'POST') {
        const { queue_name: name } = json(body)
        if (!/^[a-z0-9-]{1,63}$/.test(name ?? '')) {
          throw new ApiError(
            400,
            11003,
            'queue_name must be 1-63 lowercase letters, digits or dashes',
          )
        }
        if (state.queues.some((q) => q.queue_name === name)) {
          throw new ApiError(409, 11009, 'A queue with this name already exists')
        }
        const queue = { queue_id: hex32(), queue_name: name, created_on: now(), modified_on: now() }
        queue.consumers = []
        state.queues.push(queue)
        call.created = { queue: name }
        return { result: queueListing(queue) }
      }
    }
    if (under('queues', '*') && method === 'GET')
      return { result: queueListing(queueById(rest[1])) }
    if (under('queues', '*', 'consumers') && method === 'POST') {
      const queue = queueById(rest[1])
      const input = json(body)
      scriptNamed(input.script_name)
      if (queue.consumers.length > 0) {
        throw new ApiError(400, 11004, 'This queue already has a consumer')
      }
      if (input.dead_letter_queue) queueNamed(input.dead_letter_queue)
      const consumer = consumerOf(input)
      queue.consumers.push(consumer)
      return { result: consumer }
    }
    if (under('queues', '*', 'consumers', '*') && method === 'PUT') {
      const queue = queueById(rest[1])
      const index = queue.consumers.findIndex((c) => c.consumer_id === rest[3])
      if (index < 0) throw notFound(11005, 'Consumer not found')
      const input = json(body)
      if (input.dead_letter_queue) queueNamed(input.dead_letter_queue)
      queue.consumers[index] = { ...consumerOf(input), consumer_id: rest[3] }
      return { result: queue.consumers[index] }
    }

    // Workers
    if (under('workers', 'scripts') && method === 'GET') {
      return { result: Object.values(state.scripts).map(scriptListing) }
    }
    if (under('workers', 'services', '*') && method === 'GET') {
      const script = scriptNamed(rest[2])
      return {
        result: {
          id: script.id,
          default_environment: {
            environment: 'production',
            script: { ...scriptListing(script), last_deployed_from: 'wrangler' },
          },
          created_on: script.created_on,
          modified_on: script.modified_on,
        },
      }
    }
    if (under('workers', 'scripts', '*') && method === 'PUT') {
      const form = await upload(body, headers)
      const script = putScript(rest[2], form, call)
      return {
        result: { ...scriptListing(script), deployment_id: script.deployed, startup_time_ms: 5 },
      }
    }
    if (under('workers', 'scripts', '*', 'versions')) {
      const script = scriptNamed(rest[2])
      if (method === 'POST') {
        const form = await upload(body, headers)
        if (form.metadata.migrations) {
          throw new ApiError(400, 10021, 'Durable Object migrations need a script upload')
        }
        const version = addVersion(script, form, call)
        return {
          result: {
            id: version.id,
            number: version.number,
            metadata: { created_on: version.created_on, source: 'wrangler' },
            resources: {
              script: { etag: version.etag, handlers: ['fetch', 'scheduled', 'queue'] },
            },
            startup_time_ms: 5,
          },
        }
      }
      if (method === 'GET') {
        return { result: { items: script.versions.map(versionListing).reverse() } }
      }
    }
    if (under('workers', 'scripts', '*', 'deployments')) {
      const script = scriptNamed(rest[2])
      if (method === 'POST') {
        const input = json(body)
        for (const v of input.versions ?? []) {
          if (!script.versions.some((x) => x.id === v.version_id)) {
            throw notFound(10215, 'Version not found')
          }
        }
        const deployment = deploy(script, input.versions, input.annotations)
        call.deployed = deployment.versions[0].version_id
        return { result: deployment }
      }
      if (method === 'GET') return { result: { deployments: [...script.deployments].reverse() } }
    }
    if (under('workers', 'scripts', '*', 'settings') && method === 'GET') {
      const script = scriptNamed(rest[2])
      return {
        result: {
          bindings: script.bindings,
          compatibility_date: script.compatibility_date,
          compatibility_flags: [],
          logpush: false,
          tags: [],
          tail_consumers: [],
          usage_model: 'standard',
          ...script.settings,
        },
      }
    }
    if (under('workers', 'scripts', '*', 'script-settings')) {
      const script = scriptNamed(rest[2])
      if (method === 'PATCH') Object.assign(script.settings, json(body))
      return { result: script.settings }
    }
    if (under('workers', 'scripts', '*', 'subdomain')) {
      const script = scriptNamed(rest[2])
      if (method === 'POST') {
        const input = json(body)
        script.subdomain = {
          enabled: input.enabled ?? script.subdomain.enabled,
          previews_enabled: input.previews_enabled ?? input.enabled ?? script.subdomain.enabled,
        }
      }
      return { result: script.subdomain }
    }
    if (under('workers', 'scripts', '*', 'schedules')) {
      const script = scriptNamed(rest[2])
      if (method === 'PUT') {
        script.schedules = json(body).map(({ cron }) => ({
          cron,
          created_on: now(),
          modified_on: now(),
        }))
      }
      return { result: { schedules: script.schedules } }
    }
    if (under('workers', 'scripts', '*', 'secrets')) {
      const script = scriptNamed(rest[2])
      if (method === 'GET') {
        return {
          result: Object.keys(script.secrets).map((name) => ({ name, type: 'secret_text' })),
        }
      }
      if (method === 'PUT') {
        const { name, text } = json(body)
        script.secrets[name] = text
        call.secretsSet = [name]
        return { result: { name, type: 'secret_text' } }
      }
    }
    throw notFound(7003, `No route for ${method} ${url.pathname}`)
  }

  const d1ById = (id) => {
    const db = state.d1.find((d) => d.uuid === id)
    if (!db) throw notFound(7404, `The database ${id} could not be found`)
    return db
  }
  const d1Listing = (db) => ({
    uuid: db.uuid,
    name: db.name,
    version: 'production',
    created_at: db.created_at,
    num_tables: db.tables ? 1 : 0,
    file_size: 12288,
  })

  // D1 runs the SQL as one batch. The stand-in keeps only what wrangler's migration commands
  // read back, the d1_migrations table, and records every statement it was sent.
  function d1Query(db, sql, call) {
    call.sql = sql
    const meta = (written) => ({
      duration: 0.2,
      changes: written,
      rows_read: 0,
      rows_written: written,
    })
    if (/^\s*CREATE TABLE IF NOT EXISTS d1_migrations\s*\(/i.test(sql)) {
      db.tables = true
      return [{ results: [], success: true, meta: meta(0) }]
    }
    if (/^\s*SELECT \*\s+FROM d1_migrations\s+ORDER BY id\s*$/i.test(sql)) {
      if (!db.tables) throw new ApiError(400, 7500, 'no such table: d1_migrations: SQLITE_ERROR')
      return [{ results: db.migrations, success: true, meta: meta(0) }]
    }
    const insert = /INSERT INTO d1_migrations \(name\)\s*values \('([^']+)'\);\s*$/i.exec(sql)
    if (!insert) throw new ApiError(400, 7500, 'The stand-in runs migrations only')
    const name = insert[1]
    if (!db.tables) throw new ApiError(400, 7500, 'no such table: d1_migrations: SQLITE_ERROR')
    if (db.migrations.some((m) => m.name === name)) {
      throw new ApiError(
        400,
        7500,
        'UNIQUE constraint failed: d1_migrations.name: SQLITE_CONSTRAINT',
      )
    }
    if (failing.has(name)) {
      call.failed = name
      throw new ApiError(400, 7500, `near "BROKEN": syntax error at offset 0: SQLITE_ERROR`)
    }
    const id = db.migrations.length + 1
    db.migrations.push({ id, name, applied_at: now().replace('T', ' ').slice(0, 19) })
    call.migration = name
    return [{ results: [], success: true, meta: meta(1) }]
  }

  const queueListing = (q) => ({
    queue_id: q.queue_id,
    queue_name: q.queue_name,
    created_on: q.created_on,
    modified_on: q.modified_on,
    producers: [],
    producers_total_count: Object.values(state.scripts).filter((s) =>
      s.bindings.some((b) => b.type === 'queue' && b.queue_name === q.queue_name),
    ).length,
    consumers: q.consumers,
    consumers_total_count: q.consumers.length,
  })
  const queueById = (id) => {
    const queue = state.queues.find((q) => q.queue_id === id)
    if (!queue) throw notFound(11000, 'Queue not found')
    return queue
  }
  const queueNamed = (name) => {
    const queue = state.queues.find((q) => q.queue_name === name)
    if (!queue) throw notFound(11000, `Queue ${name} not found`)
    return queue
  }
  const consumerOf = (input) => ({
    consumer_id: hex32(),
    type: 'worker',
    script: input.script_name,
    dead_letter_queue: input.dead_letter_queue ?? '',
    settings: Object.fromEntries(Object.entries(input.settings ?? {}).filter(([, v]) => v != null)),
    created_on: now(),
  })

  const scriptNamed = (name) => {
    const script = state.scripts[name]
    if (!script) throw notFound(10007, 'This Worker does not exist on your account.')
    return script
  }
  const scriptListing = (s) => ({
    id: s.name,
    tag: s.id,
    tags: [],
    etag: s.etag,
    handlers: ['fetch', 'scheduled', 'queue'],
    migration_tag: s.migration_tag,
    compatibility_date: s.metadata.compatibility_date,
    created_on: s.created_on,
    modified_on: s.modified_on,
    usage_model: 'standard',
  })
  const versionListing = (v) => ({
    id: v.id,
    number: v.number,
    metadata: {
      created_on: v.created_on,
      source: 'wrangler',
      author_email: 'deployer@example.test',
    },
  })

  // The multipart body of an upload: its metadata part, and the modules' names and digests.
  async function upload(body, headers) {
    const form = await new Response(body, {
      headers: { 'content-type': headers['content-type'] },
    }).formData()
    const text = async (part) => (typeof part === 'string' ? part : await part.text())
    const metadata = JSON.parse(await text(form.get('metadata')))
    const modules = {}
    for (const [name, value] of form.entries()) {
      if (name === 'metadata') continue
      modules[name] = sha256(await text(value))
    }
    if (!modules[metadata.main_module]) {
      throw new ApiError(400, 10021, 'No such module: the main module is missing from the upload')
    }
    return { metadata, modules }
  }

  // Bindings are checked the way the API does: every D1 id, namespace and queue must exist.
  function resolveBindings(script, metadata) {
    const bindings = []
    const secrets = {}
    for (const b of metadata.bindings ?? []) {
      if (b.type === 'd1') d1ById(b.id)
      if (b.type === 'kv_namespace' && !state.kv.some((n) => n.id === b.namespace_id)) {
        throw notFound(10041, `KV namespace '${b.namespace_id}' is not valid.`)
      }
      if (b.type === 'queue') queueNamed(b.queue_name)
      if (b.type === 'secret_text') secrets[b.name] = b.text
      else bindings.push(b)
    }
    // Secrets set earlier stay: an upload never deletes them (`wrangler deploy --help`).
    return { bindings, secrets: { ...(script?.secrets ?? {}), ...secrets } }
  }

  function putScript(name, form, call) {
    const existing = state.scripts[name]
    const migrations = form.metadata.migrations
    if (migrations && migrations.old_tag !== existing?.migration_tag) {
      throw new ApiError(400, 10079, 'The migration tag does not match the current one')
    }
    const script = existing ?? {
      name,
      id: hex32(),
      created_on: now(),
      versions: [],
      deployments: [],
      settings: {},
      schedules: [],
      subdomain: { enabled: false, previews_enabled: false },
      secrets: {},
      bindings: [],
    }
    if (migrations) script.migration_tag = migrations.new_tag
    state.scripts[name] = script
    const version = addVersion(script, form, call)
    deploy(script, [{ version_id: version.id, percentage: 100 }])
    call.deployed = version.id
    return script
  }

  function addVersion(script, { metadata, modules }, call) {
    const { bindings, secrets } = resolveBindings(script, metadata)
    const etag = sha256(JSON.stringify(modules))
    const version = {
      id: randomUUID(),
      number: script.versions.length + 1,
      created_on: now(),
      etag,
      modules,
      bindings,
      secretNames: Object.keys(secrets).sort(),
      compatibility_date: metadata.compatibility_date,
      compatibility_flags: metadata.compatibility_flags ?? [],
      observability: metadata.observability,
    }
    script.versions.push(version)
    script.secrets = secrets
    call.uploaded = { script: script.name, version: version.id, etag }
    const secretNames = (metadata.bindings ?? []).filter((b) => b.type === 'secret_text')
    if (secretNames.length > 0) call.secretsSet = secretNames.map((b) => b.name)
    return version
  }

  function deploy(script, versions, annotations) {
    const deployment = {
      id: randomUUID(),
      source: 'wrangler',
      strategy: 'percentage',
      author_email: 'deployer@example.test',
      created_on: now(),
      versions,
      ...(annotations && { annotations }),
    }
    script.deployments.push(deployment)
    const live = script.versions.find((v) => v.id === versions[0].version_id)
    Object.assign(script, {
      deployed: live.id,
      etag: live.etag,
      modules: live.modules,
      bindings: live.bindings,
      compatibility_date: live.compatibility_date,
      modified_on: now(),
      metadata: { compatibility_date: live.compatibility_date },
    })
    return deployment
  }

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}`
  return {
    url,
    /** CLOUDFLARE_API_BASE_URL for wrangler. */
    apiBaseUrl: `${url}${API}`,
    token,
    accountId,
    state,
    telegram,
    /** Every call so far, oldest first: method, path, query, status, and what it did. */
    calls,
    /** D1 refuses the named migration file's SQL from now on, as a failing statement is refused. */
    failMigration: (name) => failing.add(name),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(resolve)
      }),
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const standIn = await startCloudflareStandIn({ telegramToken: process.env.TELEGRAM_BOT_TOKEN })
  console.log(`CLOUDFLARE_API_BASE_URL=${standIn.apiBaseUrl}`)
  console.log(`CLOUDFLARE_API_TOKEN=${standIn.token}`)
  console.log(`CLOUDFLARE_ACCOUNT_ID=${standIn.accountId}`)
  console.log(`TELEGRAM_API_URL=${standIn.url}`)
}
