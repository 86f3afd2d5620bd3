import jmespath from 'jmespath'
import {usageError, type SvcError} from '../errors.js'
import {closest} from '../suggest.js'
import type {Output} from './output.js'

/**
 * `--query EXPR` (`-q`): a JMESPath expression over the command's JSON document, as the AWS CLI has
 * it. The expression is compiled before anything is sent, so a syntax error costs no request.
 */
export interface JsonQuery {
  expression: string
  fields: string[]
}

interface Node {
  type: string
  name?: unknown
  children?: Node[]
  value?: unknown
}

/** Parses the expression; a syntax error is a usage error (exit 2) naming the position. */
export function compileQuery(expression: string): JsonQuery {
  let ast: Node
  try {
    ast = jmespath.compile(expression) as unknown as Node
  } catch (e) {
    throw usageError(
      `--query: not a JMESPath expression: ${(e as Error).message}`,
      'For example --query "data[].id" or -q "data[?status==\'ACTIVE\'].{id: id, type: customerType}" (https://jmespath.org).',
    )
  }
  return {expression, fields: fieldNames(ast)}
}

/**
 * The expression's result. A field the document does not have, when one of its keys is a near
 * spelling of it, is a usage error with the suggestion: JMESPath itself answers null, which a script
 * would take for "no value". A field with no near key is left to JMESPath (optional fields are
 * omitted when empty, and an empty list has no keys at all).
 */
export function runQuery(query: JsonQuery, document: unknown): {result: unknown} | {error: SvcError} {
  const keys = new Set<string>()
  collectKeys(document, keys, 0)
  const misspelt = query.fields
    .filter((f) => !keys.has(f))
    .map((f) => ({field: f, suggestion: closest(f, keys)}))
    .filter((m): m is {field: string; suggestion: string} => m.suggestion !== undefined)
  if (misspelt.length) {
    const list = misspelt.map((m) => `"${m.field}" (did you mean "${m.suggestion}"?)`).join(', ')
    return {
      error: usageError(
        `--query: the output has no field ${list}`,
        `Fields in this output: ${[...keys].sort().slice(0, 40).join(', ')}.`,
      ),
    }
  }
  return {result: jmespath.search(document, query.expression)}
}

/** A string result prints bare (one id per line is what a shell loop wants), anything else as JSON. */
export function formatQueryResult(result: unknown): string {
  if (typeof result === 'string') return result + '\n'
  return JSON.stringify(result, null, 2) + '\n'
}

function fieldNames(node: Node | undefined, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out
  if (node.type === 'Field' && typeof node.name === 'string' && !out.includes(node.name)) out.push(node.name)
  for (const child of node.children ?? []) fieldNames(child, out)
  // A key-value pair of a multi-select hash keeps its expression under `value`.
  if (node.type === 'KeyValuePair') fieldNames(node.value as Node, out)
  return out
}

/** Every key of every object in the document (bounded depth: documents are API answers, not trees). */
function collectKeys(value: unknown, keys: Set<string>, depth: number): void {
  if (depth > 12 || value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const v of value) collectKeys(v, keys, depth + 1)
    return
  }
  for (const [k, v] of Object.entries(value)) {
    keys.add(k)
    collectKeys(v, keys, depth + 1)
  }
}

/**
 * Prints the --query result of a command's document; returns the exit code when it was refused.
 * A misspelt field in a read is refused (exit 2) with its suggestion; after a write the outcome must
 * not be lost, so the whole document is printed and the refusal becomes a warning.
 */
export function printQueried(out: Output, query: JsonQuery, document: unknown, wrote: boolean): number | undefined {
  const ran = runQuery(query, document)
  if ('result' in ran) {
    out.write(formatQueryResult(ran.result))
    return undefined
  }
  if (wrote) {
    out.printJson(document)
    out.warn(`${ran.error.message} The write was sent; above is its whole answer.`)
    return undefined
  }
  const doc = ran.error.toDocument()
  out.printJson({error: doc})
  out.printErrorLine(doc)
  if (doc.hint) out.info(out.dim('Hint: ') + doc.hint)
  return ran.error.exitCode
}
