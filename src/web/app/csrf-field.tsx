// <CsrfField />: the hidden field that carries the CSRF token in every form of a web app page. The
// page's frame provides the token; a form outside a frame passes it itself.
import { createContext, useContext } from 'hono/jsx'
import { CSRF_FIELD } from './form-body.ts'

/** The token of the page being rendered, provided by AppFrame. */
export const CsrfContext = createContext<string | undefined>(undefined)

export function CsrfField({ token }: { token?: string }) {
  const value = token ?? useContext(CsrfContext)
  // A form without its token would only ever be refused: a wiring mistake, caught in tests.
  if (!value) throw new Error('CsrfField needs a token: render it inside AppFrame or pass one')
  return <input type="hidden" name={CSRF_FIELD} value={value} />
}
