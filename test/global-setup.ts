// Starts the stand-ins for systems outside Cloudflare once for the whole test run (Node side).
import type { TestProject } from 'vitest/node'
import { startProviderStandIn } from './stand-ins/providers.ts'
import { startIntelligenceStandIn } from './stand-ins/intelligence.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    standInUrl: string
    intelligenceUrl: string
    /** FAULT_SEED from the environment ('' when unset): replays a fault-injection run. */
    faultSeed: string
  }
}

export default async function setup(project: TestProject) {
  const providers = await startProviderStandIn()
  project.provide('standInUrl', providers.url)
  // Short ingestion steps keep the tests that wait for READY quick.
  const intelligence = await startIntelligenceStandIn({ stepMs: 200 })
  project.provide('intelligenceUrl', intelligence.url)
  project.provide('faultSeed', process.env.FAULT_SEED ?? '')
  return async () => {
    await new Promise((resolve) => providers.server.close(resolve))
    intelligence.server.closeAllConnections()
    await new Promise((resolve) => intelligence.server.close(resolve))
  }
}
