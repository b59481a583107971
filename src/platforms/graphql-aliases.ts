// The stand-ins' reading of an aliased GraphQL query (LeetCode's contest histories asked many
// handles a request): the query parsed as a GraphQL server parses it, and answered field by field
// from the recorded single-field answers, put together as the server puts a batch together.
// Stand-in code only: the Worker builds its queries (leetcode/results.ts) and never parses one.

/** A value in the query: a variable, or a literal as JSON. */
type Value =
  | { kind: 'variable'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'list'; items: Value[] }
  | { kind: 'object'; fields: Record<string, Value> }

/** One field of the operation's top selection. */
export interface TopField {
  /** The response key: the alias, or the field's name without one. */
  key: string
  alias?: string
  name: string
  arguments: Record<string, Value>
  /** The field's selection set as written ('' for a scalar field). */
  selection: string
  /** Where the field starts (1-based), as a server's error `locations` give it. */
  line: number
  column: number
}

export interface ParsedOperation {
  operationName?: string
  /** Declared variables: name to type as written ("String!"). */
  variables: Record<string, { type: string; nonNull: boolean; default?: Value }>
  fields: TopField[]
}

/** A query the stand-in cannot read, answered as a server answers a syntax or validation error. */
export class GraphqlRefusal extends Error {}

interface Token {
  kind: 'punct' | 'name' | 'string' | 'number'
  text: string
  start: number
  end: number
  line: number
  column: number
}

const PUNCTUATORS = new Set(['!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '|', '}'])
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const NAME = /[_A-Za-z][_0-9A-Za-z]*/y

/** The query's tokens (GraphQL's lexical grammar: commas and comments are ignored). */
function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  let line = 1
  let lineStart = 0
  const at = (start: number) => ({ line, column: start - lineStart + 1 })
  while (i < source.length) {
    const c = source[i]
    if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++
      i++
      line++
      lineStart = i
      continue
    }
    if (c === ' ' || c === '\t' || c === ',' || c === '\uFEFF') {
      i++
      continue
    }
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++
      continue
    }
    const start = i
    if (source.startsWith('...', i)) {
      throw new GraphqlRefusal('Syntax Error: fragments are not read by the stand-in.')
    }
    if (PUNCTUATORS.has(c)) {
      tokens.push({ kind: 'punct', text: c, start, end: i + 1, ...at(start) })
      i++
      continue
    }
    if (c === '"') {
      if (source.startsWith('"""', i)) {
        throw new GraphqlRefusal('Syntax Error: block strings are not read by the stand-in.')
      }
      i++
      while (i < source.length && source[i] !== '"') {
        if (source[i] === '\n' || source[i] === '\r') break
        i += source[i] === '\\' ? 2 : 1
      }
      if (source[i] !== '"') throw syntaxError('Unterminated string.', at(start))
      i++
      tokens.push({ kind: 'string', text: source.slice(start, i), start, end: i, ...at(start) })
      continue
    }
    NAME.lastIndex = i
    NUMBER.lastIndex = i
    const name = NAME.exec(source)
    const number = name ? null : NUMBER.exec(source)
    const match = name ?? number
    if (!match) throw syntaxError(`Unexpected character: "${c}".`, at(start))
    i += match[0].length
    tokens.push({ kind: name ? 'name' : 'number', text: match[0], start, end: i, ...at(start) })
  }
  return tokens
}

function syntaxError(message: string, where: { line: number; column: number }) {
  return new GraphqlRefusal(`Syntax Error: ${message} (${where.line}:${where.column})`)
}

/** Parses the one operation of `source`: its name, variable definitions and top fields. */
export function parseOperation(source: string): ParsedOperation {
  const tokens = tokenize(source)
  let p = 0
  const peek = () => tokens[p]
  const fail = (what: string): never => {
    const t = tokens[p]
    throw t
      ? syntaxError(`Expected ${what}, found "${t.text}".`, t)
      : new GraphqlRefusal(`Syntax Error: Expected ${what}, found <EOF>.`)
  }
  const isPunct = (text: string) => peek()?.kind === 'punct' && peek().text === text
  const expectPunct = (text: string) => (isPunct(text) ? tokens[p++] : fail(`"${text}"`))
  const expectName = () => (peek()?.kind === 'name' ? tokens[p++].text : fail('Name'))

  function type(): string {
    let text: string
    if (isPunct('[')) {
      p++
      text = `[${type()}]`
      expectPunct(']')
    } else {
      text = expectName()
    }
    if (isPunct('!')) {
      p++
      text += '!'
    }
    return text
  }

  function value(constant: boolean): Value {
    const t = peek() ?? fail('a value')
    if (t.kind === 'punct' && t.text === '$') {
      if (constant) fail('a constant value')
      p++
      return { kind: 'variable', name: expectName() }
    }
    if (t.kind === 'punct' && t.text === '[') {
      p++
      const items: Value[] = []
      while (!isPunct(']')) items.push(value(constant))
      p++
      return { kind: 'list', items }
    }
    if (t.kind === 'punct' && t.text === '{') {
      p++
      const fields: Record<string, Value> = {}
      while (!isPunct('}')) {
        const name = expectName()
        expectPunct(':')
        fields[name] = value(constant)
      }
      p++
      return { kind: 'object', fields }
    }
    if (t.kind === 'punct') return fail('a value')
    p++
    if (t.kind === 'string') {
      // GraphQL's escapes are JSON's.
      try {
        return { kind: 'literal', value: JSON.parse(t.text) as unknown }
      } catch {
        return fail('a valid string')
      }
    }
    if (t.kind === 'number') return { kind: 'literal', value: Number(t.text) }
    // true, false, null, or an enum value (read as its name).
    const named: Record<string, unknown> = { true: true, false: false, null: null }
    return { kind: 'literal', value: t.text in named ? named[t.text] : t.text }
  }

  function directives() {
    while (isPunct('@')) {
      p++
      expectName()
      if (isPunct('(')) args()
    }
  }

  function args(): Record<string, Value> {
    expectPunct('(')
    const out: Record<string, Value> = {}
    do {
      const name = expectName()
      expectPunct(':')
      out[name] = value(false)
    } while (!isPunct(')'))
    p++
    return out
  }

  /** Skips a selection set, nested ones included; answers its source text. */
  function selectionText(): string {
    const open = expectPunct('{')
    let depth = 1
    while (depth > 0) {
      const t = tokens[p++] ?? fail('"}"')
      if (t.kind === 'punct' && t.text === '{') depth++
      if (t.kind === 'punct' && t.text === '}') depth--
      if (depth === 0) return source.slice(open.start, t.end)
    }
    return ''
  }

  const operation: ParsedOperation = { variables: {}, fields: [] }
  if (peek()?.kind === 'name') {
    const keyword = expectName()
    if (keyword !== 'query') {
      throw new GraphqlRefusal(`The stand-in answers queries only, not a ${keyword}.`)
    }
    if (peek()?.kind === 'name') operation.operationName = expectName()
    if (isPunct('(')) {
      p++
      do {
        expectPunct('$')
        const name = expectName()
        expectPunct(':')
        const declared = type()
        let def: Value | undefined
        if (isPunct('=')) {
          p++
          def = value(true)
        }
        if (name in operation.variables) {
          throw new GraphqlRefusal(`There can be only one variable named "$${name}".`)
        }
        operation.variables[name] = {
          type: declared,
          nonNull: declared.endsWith('!'),
          ...(def && { default: def }),
        }
      } while (!isPunct(')'))
      p++
    }
    directives()
  }
  expectPunct('{')
  do {
    const first = peek() ?? fail('Name')
    let name = expectName()
    let alias: string | undefined
    if (isPunct(':')) {
      p++
      alias = name
      name = expectName()
    }
    const fieldArgs = isPunct('(') ? args() : {}
    directives()
    const selection = isPunct('{') ? selectionText() : ''
    operation.fields.push({
      key: alias ?? name,
      ...(alias !== undefined && { alias }),
      name,
      arguments: fieldArgs,
      selection,
      line: first.line,
      column: first.column,
    })
  } while (!isPunct('}'))
  p++
  if (p < tokens.length) fail('<EOF>')
  return operation
}

/** The JSON of `value` with the request's variables in place. */
function resolve(value: Value, variables: Record<string, unknown>): unknown {
  switch (value.kind) {
    case 'variable':
      return variables[value.name]
    case 'literal':
      return value.value
    case 'list':
      return value.items.map((v) => resolve(v, variables))
    case 'object':
      return Object.fromEntries(
        Object.entries(value.fields).map(([k, v]) => [k, resolve(v, variables)]),
      )
  }
}

/** The variables a value names. */
function variablesOf(value: Value): string[] {
  if (value.kind === 'variable') return [value.name]
  if (value.kind === 'list') return value.items.flatMap(variablesOf)
  if (value.kind === 'object') return Object.values(value.fields).flatMap(variablesOf)
  return []
}

/**
 * The variables' values as a server coerces them: every variable a field uses declared, each
 * required one given (or defaulted). A fault is the refusal graphql-js words for it.
 */
function coerceVariables(
  operation: ParsedOperation,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [name, def] of Object.entries(operation.variables)) {
    if (given[name] !== undefined && given[name] !== null) values[name] = given[name]
    else if (def.default) values[name] = resolve(def.default, {})
    else if (def.nonNull) {
      throw new GraphqlRefusal(
        `Variable "$${name}" of required type "${def.type}" was not provided.`,
      )
    } else values[name] = null
    if (def.type.replace(/!$/, '') === 'String' && values[name] !== null) {
      if (typeof values[name] !== 'string') {
        throw new GraphqlRefusal(
          `Variable "$${name}" got invalid value ${JSON.stringify(values[name])}; String cannot represent a non string value.`,
        )
      }
    }
  }
  for (const field of operation.fields) {
    for (const used of Object.values(field.arguments).flatMap(variablesOf)) {
      if (!(used in operation.variables)) {
        throw new GraphqlRefusal(`Variable "$${used}" is not defined by operation.`)
      }
    }
  }
  return values
}

/** The single query of one top field, as the recorded answers were asked (leetcode/results.ts). */
export interface SingleFieldQuery {
  /** The field's own name: the recorded single-field operations are named for their field. */
  operationName: string
  query: string
  /** The field's arguments, each as a variable named for its argument. */
  variables: Record<string, unknown>
}

/** An answer of a stand-in: status and JSON body (a string is sent as it is), its headers. */
export interface StandInAnswer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const refusal = (message: string): StandInAnswer => ({
  status: 400,
  body: { errors: [{ message }] },
})

/**
 * The answer to a GraphQL POST `body` whose top fields carry aliases, field by field: each is
 * answered by `answerOne` as the single query of that field alone (named for the field, its
 * arguments as variables named for them, the variables' values the request's), and the answers
 * are put together as a GraphQL server executes a query: each field's value under its response
 * key in `data`, each field's errors with its key as `path[0]` and its place in the query as
 * `locations`. A field answered not 2xx, or with an error naming no field (a refusal of the whole
 * request, a rate limit), answers the whole request so. Undefined when `body` is not such a query
 * (no alias, or not a query the stand-in parses: answered whole, as recorded) or a field has no
 * recorded answer. An aliased query whose variables are wrong (one used but not declared, a
 * required one not given) or with a response key twice answers 400 with the refusal.
 */
export function answerAliasedQuery(
  body: string,
  answerOne: (single: SingleFieldQuery) => StandInAnswer | undefined,
): StandInAnswer | undefined {
  let request: unknown
  try {
    request = JSON.parse(body)
  } catch {
    return undefined
  }
  if (!isObject(request) || typeof request.query !== 'string') return undefined
  let operation: ParsedOperation
  try {
    operation = parseOperation(request.query)
  } catch (error) {
    // Not a query the stand-in reads (a fragment, say): answered whole, as recorded.
    if (error instanceof GraphqlRefusal) return undefined
    throw error
  }
  if (!operation.fields.some((f) => f.alias !== undefined)) return undefined
  let variables: Record<string, unknown>
  try {
    const keys = operation.fields.map((f) => f.key)
    const twice = keys.find((k, i) => keys.indexOf(k) !== i)
    if (twice !== undefined) {
      throw new GraphqlRefusal(`Fields "${twice}" conflict: a response key is given twice.`)
    }
    variables = coerceVariables(operation, isObject(request.variables) ? request.variables : {})
  } catch (error) {
    if (error instanceof GraphqlRefusal) return refusal(error.message)
    throw error
  }
  const data: Record<string, unknown> = {}
  const errors: Record<string, unknown>[] = []
  for (const field of operation.fields) {
    const fieldVariables = Object.fromEntries(
      Object.entries(field.arguments).map(([name, v]) => [name, resolve(v, variables)]),
    )
    const declared = Object.keys(fieldVariables).map((name) => `$${name}: String`)
    const argumentList = Object.keys(fieldVariables).map((name) => `${name}: $${name}`)
    const one = answerOne({
      operationName: field.name,
      query:
        `query ${field.name}${declared.length ? `(${declared.join(', ')})` : ''} {\n` +
        `  ${field.name}${argumentList.length ? `(${argumentList.join(', ')})` : ''} ${field.selection}\n}`,
      variables: fieldVariables,
    })
    if (!one) return undefined
    const answer = typeof one.body === 'string' ? tryJson(one.body) : one.body
    if (one.status < 200 || one.status > 299 || !isObject(answer)) return one
    const oneErrors = Array.isArray(answer.errors) ? answer.errors.filter(isObject) : []
    if (oneErrors.some((e) => !Array.isArray(e.path) || e.path.length === 0)) return one
    if (isObject(answer.data) && field.name in answer.data)
      data[field.key] = answer.data[field.name]
    else if (oneErrors.length > 0) data[field.key] = null
    for (const error of oneErrors) {
      errors.push({
        ...error,
        locations: [{ line: field.line, column: field.column }],
        path: [field.key, ...(error.path as unknown[]).slice(1)],
      })
    }
  }
  return { status: 200, body: errors.length > 0 ? { errors, data } : { data } }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
