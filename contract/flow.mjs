// What every contract file does around its flows: a fresh directory, the provider stand-in, the
// service on the suite's runtime with the contract settings and the file's own, a client and the
// bootstrap admin's account; at the end all of it stopped and removed, and the service's log
// printed when the setup or a flow failed.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import { client, verifiedAccount } from './http.mjs'
import { contractSettings, startRuntime } from './runtimes.mjs'
import { startStandIn } from './stand-in.mjs'

/** The runtime the suite runs against (run.mjs sets it for the files it starts). */
export const RUNTIME = process.env.CONTRACT_RUNTIME || 'workers'
const CONTACT_EMAIL = 'operators@contract.example.test'

/**
 * Registers the before and after hooks of the describe() it is called in, and returns the flow:
 * its `standIn`, `service`, `api` and `admin` once before() has run, and `noted(fn)`, which wraps
 * a test body so that its failure prints the service's log at the end.
 * - `name`: the temporary directory's part (`contract-<name>-…`);
 * - `adminEmails`: the bootstrap admin addresses (BOOTSTRAP_ADMIN_EMAILS), `admin.email` unless set;
 * - `admin`: `{ email, name }` of the admin account made, verified, before `ready` (none without);
 * - `settings(standIn)`: the file's own settings, over the contract settings;
 * - `ready(flow)`: the rest of the setup, once the service answers (and the admin is made);
 * - `stop()`: stops what the file started itself, before the service stops.
 */
export function startFlow({
  name,
  admin,
  adminEmails = admin?.email,
  contactEmail = CONTACT_EMAIL,
  settings = () => ({}),
  ready,
  stop,
}) {
  let dir
  let failed = false
  const flow = {
    standIn: undefined,
    service: undefined,
    api: undefined,
    admin: undefined,
    noted: (fn) => async (t) => {
      try {
        await fn(t)
      } catch (error) {
        failed = true
        throw error
      }
    },
  }

  before(
    async () => {
      try {
        dir = await mkdtemp(join(tmpdir(), `contract-${name}-`))
        flow.standIn = await startStandIn()
        const all = {
          ...contractSettings({
            standInUrl: flow.standIn.url,
            adminEmail: adminEmails,
            contactEmail,
          }),
          ...settings(flow.standIn),
        }
        flow.service = await startRuntime(RUNTIME, { dir, settings: all })
        flow.api = client(flow.service.base)
        if (admin) {
          flow.admin = await verifiedAccount(flow.api, flow.standIn, {
            email: admin.email,
            password: `pw-${crypto.randomUUID()}`,
            name: admin.name,
          })
        }
        await ready?.(flow)
      } catch (error) {
        failed = true
        throw error
      }
    },
    { timeout: 120_000 },
  )

  after(async () => {
    if (failed && flow.service) {
      console.error(`--- service log (${RUNTIME}) ---\n${flow.service.log()}`)
    }
    await stop?.()
    await flow.service?.stop()
    await flow.standIn?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  return flow
}
