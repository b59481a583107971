// Starts the stand-ins for systems outside Cloudflare once for the whole test run (Node side).
import type { TestProject } from 'vitest/node'
import { startProviderStandIn } from './stand-ins/providers.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    standInUrl: string
  }
}

export default async function setup(project: TestProject) {
  const providers = await startProviderStandIn()
  project.provide('standInUrl', providers.url)
  return async () => {
    await new Promise((resolve) => providers.server.close(resolve))
  }
}
