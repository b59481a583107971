// Work that must not hold up (or show in) the answer: run after it through waitUntil.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'

/**
 * Hands `work` to the execution context, so the response goes out at once and its timing says
 * nothing about what the work does. Without an execution context (Hono's getter throws, e.g. in
 * a runtime other than Workers) the work is awaited instead, so it is never dropped. `work`
 * handles its own failures: nobody is left to hear them.
 */
export async function defer(c: Context<AppEnv>, work: () => Promise<void>): Promise<void> {
  let ctx: Context<AppEnv>['executionCtx'] | undefined
  try {
    ctx = c.executionCtx
  } catch {
    ctx = undefined
  }
  if (ctx) ctx.waitUntil(work())
  else await work()
}
