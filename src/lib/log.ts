// One log shape: every line is one JSON object `{level, event, requestId?, job?, ...fields}`.
import { redactSecrets } from './log-redaction.ts'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export type LogFields = Record<string, unknown>
export type LogWrite = (event: string, fields?: LogFields) => void

export interface Logger {
  debug: LogWrite
  info: LogWrite
  warn: LogWrite
  error: LogWrite
  /** A logger whose lines also carry `bound` (e.g. `{ requestId }` or `{ job: 'sync' }`). */
  with(bound: LogFields): Logger
}

// JSON.stringify writes an Error as `{}`: at any depth it becomes "Name: message" instead, as
// String(error) reads. A bigint, which JSON.stringify refuses, becomes its digits.
// Every text, at any depth, goes out with the secrets a URL may carry redacted (a feed's token, a
// signed link's, a provider's), whoever put it in the line.
function readable(_key: string, value: unknown): unknown {
  if (value instanceof Error) return redactSecrets(String(value))
  if (typeof value === 'string') return redactSecrets(value)
  if (typeof value === 'bigint') return value.toString()
  return value
}

/** The line; `level` and `event` come first and no field can replace them. */
export function formatLogLine(level: LogLevel, event: string, fields: LogFields): string {
  const entry: LogFields = { level, event, ...fields }
  entry.level = level
  entry.event = event
  try {
    return JSON.stringify(entry, readable)
  } catch (error) {
    // A circular field, say: the event still reaches the log.
    return JSON.stringify({ level, event, logFailed: redactSecrets(String(error)) })
  }
}

function logger(bound: LogFields): Logger {
  // console[level] is looked up at each call, so Workers Logs (and test spies) see the method.
  const at =
    (level: LogLevel): LogWrite =>
    (event, fields) =>
      console[level](formatLogLine(level, event, { ...bound, ...fields }))
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    with: (more) => logger({ ...bound, ...more }),
  }
}

/** The app's logger: `log.warn('event-name', { ...fields })`, or `log.with({ job }).info(...)`. */
export const log: Logger = logger({})
