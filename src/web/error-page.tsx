// The page of a query the home page cannot answer: what was wrong, and the way back.
import { Document } from './document.tsx'

const TITLE = 'These filters are not valid'

export function InvalidQueryPage({ errors }: { errors: string[] }) {
  return (
    <Document title={TITLE}>
      <header>
        <h1>{TITLE}</h1>
      </header>
      <main id="main" tabindex={-1}>
        <ul class="errors">
          {errors.map((error) => (
            <li>{error}</li>
          ))}
        </ul>
        <p>
          <a href="/">Show all contests</a>
        </p>
      </main>
    </Document>
  )
}
