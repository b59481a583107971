// Types of the local .dev.vars secret handling.
export const EXAMPLE_SECRETS: readonly string[]
export interface DevVarsResult {
  action: 'created' | 'replaced' | 'added' | 'kept' | 'refused'
  text: string
  message?: string
}
export function devVarsWithSecret(
  current: string | undefined,
  example: string,
  randomSecret: () => string,
): DevVarsResult
