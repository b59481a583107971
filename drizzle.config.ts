// drizzle-kit settings: generates the numbered SQL migrations that wrangler applies to D1.
import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
})
