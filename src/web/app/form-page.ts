// What every account form page is given: its token, the session (if any), the texts to show
// again, what was wrong and what the last step did.
import type { FormErrors } from './form-body.ts'
import type { WebSession } from './web-session.ts'

export interface FormPageProps {
  csrf: string
  session?: WebSession
  values?: Record<string, string>
  errors?: FormErrors
  notice?: string
}

export const fieldError = (props: FormPageProps, field: string) => props.errors?.fields[field]
export const formErrors = (props: FormPageProps) => props.errors?.form ?? []
