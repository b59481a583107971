// What `npm run deploy` deploys: the Worker's name and its resources' names for an environment, the
// settings it may take from the environment or the git-ignored .deploy.vars, and the generated
// wrangler configuration (wrangler.toml plus the ids found in the account) that wrangler reads.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { parse as parseToml } from 'smol-toml'

/** Where the generated configuration of an environment goes (git-ignored, rebuilt every run). */
export const generatedConfigPath = (root, env) =>
  join(root, '.wrangler', 'deploy', `wrangler.${env}.jsonc`)

/** The git-ignored file of provider keys and settings: .deploy.vars, or .deploy.<env>.vars. */
export const varsFileName = (env) => (env === 'production' ? '.deploy.vars' : `.deploy.${env}.vars`)

/** The deploy's own settings, which go to wrangler and the checks, never to the Worker. */
export const DEPLOY_SETTINGS = [
  'CLOUDFLARE_API_TOKEN',
  'CLOUDFLARE_ACCOUNT_ID',
  'CLOUDFLARE_API_BASE_URL',
  'SMOKE_URL',
]

/**
 * The secrets the Worker reads: src/env.ts's `Secrets`. Read from there so a secret added to the
 * app is one the deploy sets.
 */
export function secretNames(root) {
  const names = interfaceNames(root, 'Secrets')
  if (!names.includes('JWT_SECRET')) throw new Error('src/env.ts has no `interface Secrets` block')
  return names
}

/**
 * The settings the Worker reads that wrangler.toml does not list and that are no secrets, their
 * defaults in code (switches such as DISCORD_ENABLED, upstream addresses): src/env.ts's
 * `CodeDefaults`. A deploy uploads them as plain vars.
 */
export function codeDefaultNames(root) {
  return interfaceNames(root, 'CodeDefaults')
}

function interfaceNames(root, name) {
  const source = readFileSync(join(root, 'src', 'env.ts'), 'utf8')
  const block =
    new RegExp(`^interface ${name} \\{\\n([\\s\\S]*?)\\n\\}`, 'm').exec(source)?.[1] ?? ''
  return [...block.matchAll(/^\s*([A-Z][A-Z0-9_]*)\?:/gm)].map((m) => m[1])
}

/** KEY=VALUE lines (dotenv: `export `, quotes and # comments allowed) as an object. */
export function parseVars(text) {
  const vars = {}
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line)
    if (!match) throw new Error(`line ${index + 1} is not KEY=VALUE`)
    let value = match[2]
    const quoted = /^(["'])(.*)\1$/.exec(value)
    if (quoted) value = quoted[2]
    else value = value.replace(/\s+#.*$/, '')
    vars[match[1]] = value
  }
  return vars
}

/** wrangler.toml as an object. */
export function readWranglerToml(root) {
  return parseToml(readFileSync(join(root, 'wrangler.toml'), 'utf8'))
}

/** The Worker's name in an environment: wrangler's own rule, `<name>-<env>` outside production. */
export function workerName(toml, env) {
  return env === 'production' ? toml.name : `${toml.name}-${env}`
}

// One account may hold several environments and other projects: every resource is named after
// the environment's Worker, so names never collide and a new account gets its own.
const resourceName = (worker, part) => `${worker}-${part.toLowerCase()}`

/** The names, in the account, of every resource wrangler.toml binds, for one environment. */
export function resourcesOf(toml, env) {
  const worker = workerName(toml, env)
  const queueNames = new Set()
  for (const p of toml.queues?.producers ?? []) queueNames.add(p.queue)
  for (const c of toml.queues?.consumers ?? []) {
    queueNames.add(c.queue)
    if (c.dead_letter_queue) queueNames.add(c.dead_letter_queue)
  }
  return {
    worker,
    d1: (toml.d1_databases ?? []).map((d) => ({
      binding: d.binding,
      name: resourceName(worker, d.binding),
    })),
    kv: (toml.kv_namespaces ?? []).map((k) => ({
      binding: k.binding,
      name: resourceName(worker, k.binding),
    })),
    queues: [...queueNames].map((queue) => ({ queue, name: resourceName(worker, queue) })),
  }
}

/**
 * The configuration wrangler deploys from: wrangler.toml with the environment's Worker name, the
 * ids of its D1 databases and KV namespaces (`ids`: resource name -> id), its queue names, paths
 * relative to where the file is written, and `vars` laid over wrangler.toml's [vars].
 */
export function deployConfig({ toml, env, ids, vars, root, path }) {
  const resources = resourcesOf(toml, env)
  const from = dirname(path)
  const here = (p) => relative(from, join(root, p)) || '.'
  const idOf = (name) => {
    if (!ids[name]) throw new Error(`no id for ${name}`)
    return ids[name]
  }
  const queueName = (queue) => resources.queues.find((q) => q.queue === queue).name
  const { env: _environments, ...base } = toml
  const config = {
    ...base,
    name: resources.worker,
    main: here(toml.main),
    d1_databases: (toml.d1_databases ?? []).map((d) => {
      const name = resources.d1.find((r) => r.binding === d.binding).name
      return {
        ...d,
        database_name: name,
        database_id: idOf(name),
        migrations_dir: here(d.migrations_dir ?? 'migrations'),
      }
    }),
    kv_namespaces: (toml.kv_namespaces ?? []).map((k) => {
      const { preview_id: _preview, ...rest } = k
      return { ...rest, id: idOf(resources.kv.find((r) => r.binding === k.binding).name) }
    }),
    queues: {
      producers: (toml.queues?.producers ?? []).map((p) => ({ ...p, queue: queueName(p.queue) })),
      consumers: (toml.queues?.consumers ?? []).map((c) => ({
        ...c,
        queue: queueName(c.queue),
        ...(c.dead_letter_queue && { dead_letter_queue: queueName(c.dead_letter_queue) }),
      })),
    },
    vars: { ...toml.vars, ...vars },
  }
  return config
}

/** Writes the generated configuration, with a note of what it is. */
export function writeDeployConfig(path, config) {
  mkdirSync(dirname(path), { recursive: true })
  const note =
    '// Generated by `npm run deploy` from wrangler.toml and the account; rewritten every run.'
  writeFileSync(path, `${note}\n${JSON.stringify(config, null, 2)}\n`)
}
