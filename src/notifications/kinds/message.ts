// A notification whose payload names no kind (or one this version does not know): its stored
// title and message, as they are, in the plain email.
import { defineKind } from './kind.ts'
import { storedHeadline } from './rendering.ts'

export const messageKind = defineKind({
  name: 'message',
  headline: storedHeadline,
  summary: (n) => n.message,
})
