// The schema of GET /status.json (and so of what /status shows): platforms, incidents, delivery
// health and the cron jobs' last runs. Nothing in it is about a person.
import { z } from '@hono/zod-openapi'
import { CHANNELS } from '../channels/registry.ts'
import { PLATFORMS } from '../contests/schemas.ts'

const iso = z.string().openapi({ format: 'date-time' })

const StatusPlatform = z.object({
  id: z.enum(PLATFORMS),
  name: z.string(),
  enabled: z.boolean().openapi({ description: 'false: a clist.by platform while clist is off' }),
  state: z.enum(['ok', 'degraded', 'failing', 'blocked']),
  lastSuccess: iso.optional().openapi({ description: 'The last sync that got a usable answer' }),
  upcoming: z.number().int().openapi({ description: 'Contests to come, as of the last sync' }),
  source: z.enum(['own', 'clist']).openapi({ description: 'The source in use' }),
})

const StatusIncident = z.object({
  scope: z.enum(['platform', 'service']),
  subject: z.string().openapi({ description: 'A platform id, or scheduler, sync, deliveries' }),
  name: z.string().openapi({ description: 'The subject in words' }),
  kind: z.string().openapi({
    description:
      "A platform's state when it opened (degraded, failing, blocked); for the service, " +
      'stopped (a job without a good run in its allowance) or failing (deliveries)',
  }),
  detail: z.string().optional().openapi({ description: 'What the watchdog saw (service only)' }),
  startedAt: iso,
  endedAt: iso.optional().openapi({ description: 'Absent while the incident is open' }),
})

const StatusChannel = z.object({
  channel: z.enum(CHANNELS),
  label: z.string(),
  enabled: z.boolean(),
  sent: z.number().int(),
  retried: z.number().int().openapi({ description: 'Deliveries that needed more than one try' }),
  failed: z.number().int(),
  medianDelaySeconds: z.number().nullable().openapi({
    description: "Median time from a reminder's due time to its send; null without sends",
  }),
  p95DelaySeconds: z.number().nullable(),
})

const StatusJob = z.object({
  job: z.string(),
  cron: z.string(),
  lastRun: z
    .object({
      startedAt: iso,
      finishedAt: iso.optional(),
      outcome: z.enum(['running', 'ok', 'failed', 'unfinished']).openapi({
        description: 'unfinished: started over 30 minutes ago and never said how it ended',
      }),
    })
    .nullable()
    .openapi({ description: 'null: no run in the last 7 days' }),
})

export const StatusSchema = z
  .object({
    status: z.enum(['ok', 'degraded']).openapi({
      description: 'degraded while an incident is open or an enabled platform is not ok',
    }),
    generatedAt: iso.openapi({
      description: 'When these figures were read (at most a minute ago)',
    }),
    platforms: z.array(StatusPlatform),
    incidents: z
      .array(StatusIncident)
      .openapi({ description: 'Open ones and those that ended in the last 30 days, newest first' }),
    deliveries: z.object({
      windowHours: z.number().int(),
      limited: z.boolean().openapi({
        description:
          'true: more outcomes than are read (2,000 per status); counts are then at least',
      }),
      channels: z.array(StatusChannel),
    }),
    jobs: z.array(StatusJob),
  })
  .openapi('ServiceStatus')

export type ServiceStatus = z.infer<typeof StatusSchema>
