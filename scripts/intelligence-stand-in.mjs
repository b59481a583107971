// Runs the in-memory grpc-web intelligence stand-in for `npm start` (imported) or on its own
// (`node scripts/intelligence-stand-in.mjs`), on INTELLIGENCE_PORT or 50051, the usual gRPC port.
import { pathToFileURL } from 'node:url'
import { startIntelligenceStandIn } from '../test/stand-ins/intelligence.mjs'

export const DEFAULT_INTELLIGENCE_PORT = 50051

/** Starts the stand-in; when the port is taken (say, by a second `npm start`) any free port does. */
export async function startLocalIntelligence(
  port = Number(process.env.INTELLIGENCE_PORT || DEFAULT_INTELLIGENCE_PORT),
) {
  let started
  try {
    started = await startIntelligenceStandIn({ port })
  } catch (err) {
    if (err?.code !== 'EADDRINUSE') throw err
    console.warn(`[intelligence] port ${port} is in use; taking a free one`)
    started = await startIntelligenceStandIn({ port: 0 })
  }
  console.log(
    `[intelligence] grpc-web stand-in at ${started.url} (resources in memory; ` +
      `POST ${started.url}/__control/down|up|reset to script it)`,
  )
  return started
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await startLocalIntelligence()
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))
}
