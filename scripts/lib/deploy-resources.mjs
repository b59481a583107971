// The account's side of `npm run deploy`: the D1 databases, KV namespaces and queues an
// environment binds, found by name and created when missing, and the names of the Worker's
// secrets. Every call is a wrangler command.
import { DeployError, jsonArrayIn, queueNamesIn, workerMissing } from './deploy-wrangler.mjs'

/**
 * Makes sure every resource of `resources` (deploy-config.mjs resourcesOf) exists. Answers
 * `{ ids, created }`: resource name -> id for the D1 databases and KV namespaces (queues are
 * bound by name), and what was created.
 */
export async function ensureResources({ must }, resources) {
  const listD1 = async () =>
    jsonArrayIn((await must('Listing D1 databases', ['d1', 'list', '--json'])).stdout)
  const listKv = async () =>
    jsonArrayIn((await must('Listing KV namespaces', ['kv', 'namespace', 'list'])).stdout)
  const listQueues = async () =>
    queueNamesIn((await must('Listing queues', ['queues', 'list'])).stdout)
  let [d1s, namespaces, queues] = await Promise.all([listD1(), listKv(), listQueues()])

  const missing = [
    ...resources.d1
      .filter(({ name }) => !d1s.some((d) => d.name === name))
      .map(({ name }) => ({ kind: 'D1 database', name, args: ['d1', 'create', name] })),
    ...resources.kv
      .filter(({ name }) => !namespaces.some((n) => n.title === name))
      .map(({ name }) => ({
        kind: 'KV namespace',
        name,
        args: ['kv', 'namespace', 'create', name],
      })),
    // Dead-letter queues too: a consumer that names a missing one fails the upload.
    ...resources.queues
      .filter(({ name }) => !queues.includes(name))
      .map(({ name }) => ({ kind: 'queue', name, args: ['queues', 'create', name] })),
  ]
  // Two at a time: each is a wrangler process, and the machine may have two cores.
  for (let i = 0; i < missing.length; i += 2) {
    await Promise.all(
      missing.slice(i, i + 2).map((r) => must(`Creating ${r.kind} ${r.name}`, r.args)),
    )
  }
  // The ids are read back from the lists rather than from the create commands' printed snippets.
  if (missing.some((r) => r.kind === 'D1 database')) d1s = await listD1()
  if (missing.some((r) => r.kind === 'KV namespace')) namespaces = await listKv()

  const ids = {}
  for (const { name } of resources.d1) ids[name] = d1s.find((d) => d.name === name)?.uuid
  for (const { name } of resources.kv) ids[name] = namespaces.find((n) => n.title === name)?.id
  for (const [name, id] of Object.entries(ids)) {
    if (!id) throw new DeployError(`${name} was created but is not listed: run the deploy again.`)
  }
  return { ids, created: missing.map((r) => `${r.kind} ${r.name}`) }
}

/** The names of the Worker's secrets; none for a Worker not uploaded yet. */
export async function secretNamesOf({ run }, worker) {
  const result = await run(['secret', 'list', '--name', worker, '--format', 'json'])
  if (result.code === 0) return jsonArrayIn(result.stdout).map((s) => s.name)
  if (workerMissing(result.output)) return []
  process.stderr.write(result.output)
  throw new DeployError("Listing the Worker's secrets failed: see above.")
}
