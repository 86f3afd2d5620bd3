import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {ErrorObject, ValidateFunction} from 'ajv'

/**
 * The published contract (`../shared/spec/openapi.yaml`, OpenAPI 3.1) as JSON-schema validators.
 *
 * OpenAPI 3.1 schemas are JSON Schema 2020-12, so ajv's 2020 class validates them as they are, with
 * three adaptations made here once at load:
 * - `discriminator` (an OpenAPI keyword ajv cannot use with `mapping`) becomes an explicit dispatch:
 *   the tag must be one of the mapping's keys and the object must match the mapped schema. This is
 *   what the contract means, and it names the failing branch instead of "must match exactly one".
 * - Direction: in responses a `writeOnly` property must be absent (and is not required); in requests
 *   a `readOnly` property is not required.
 * - Formats: ajv-formats for date-time/email/uri/date, plus OpenAPI's int64/double/binary.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const CONTRACT_PATH = resolve(REPO_ROOT, '../shared/spec/openapi.yaml')
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

export type Direction = 'request' | 'response'

export interface Operation {
  /** `GET /customers/{customerId}` */
  key: string
  method: string
  template: string
  operationId?: string
  /** JSON pointer (within the document) of the operation object. */
  pointer: string
  literalSegments: number
  regex: RegExp
}

export interface Violation {
  where: string
  errors: string[]
}

type Json = Record<string, unknown>

export class Contract {
  readonly operations: Operation[]
  private readonly ajv: {request: import('ajv').default; response: import('ajv').default}
  private readonly cache = new Map<string, ValidateFunction>()

  private constructor(
    readonly doc: Json,
    ajv: Contract['ajv'],
  ) {
    this.ajv = ajv
    this.operations = listOperations(doc)
  }

  /** Reads the YAML contract, or `jsonPath` when given (the same document already parsed to JSON once for the run). */
  static async load(path = CONTRACT_PATH, jsonPath?: string): Promise<Contract> {
    const [ajvModule, {default: addFormats}] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')])
    // CommonJS under ESM: the class is the module's default export (or its `default` property)
    const Ajv2020 = ((ajvModule as {default?: unknown}).default ??
      ajvModule) as typeof import('ajv/dist/2020.js').default
    const doc = jsonPath ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as Json) : await readContract(path)
    const make = (direction: Direction) => {
      const ajv = new Ajv2020({strict: false, allErrors: true, validateFormats: true})
      ;(addFormats as unknown as (a: unknown) => void)(ajv)
      ajv.addFormat('int64', {type: 'number', validate: (n: number) => Number.isSafeInteger(n)})
      ajv.addFormat('int32', {type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31})
      ajv.addFormat('double', {type: 'number', validate: () => true})
      ajv.addFormat('float', {type: 'number', validate: () => true})
      ajv.addFormat('binary', true)
      ajv.addSchema(adapt(structuredClone(doc), direction) as object, `contract-${direction}`)
      return ajv as unknown as import('ajv').default
    }
    return new Contract(doc, {request: make('request'), response: make('response')})
  }

  /** The operation a concrete request path (without the /2025-10-13 prefix) belongs to; literal segments win over parameters. */
  match(method: string, path: string): Operation | undefined {
    const m = method.toLowerCase()
    let best: Operation | undefined
    for (const op of this.operations) {
      if (op.method !== m || !op.regex.test(path)) continue
      if (!best || op.literalSegments > best.literalSegments) best = op
    }
    return best
  }

  operation(op: Operation): Json {
    return resolvePointer(this.doc, op.pointer) as Json
  }

  /** The documented response for a status (exact, then 4XX/5XX, then default), or undefined when the status is not in the contract. */
  responseFor(
    op: Operation,
    status: number,
  ): {key: string; pointer: string; schema?: Json; content: string[]} | undefined {
    const responses = (this.operation(op).responses ?? {}) as Record<string, Json>
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses)
    if (!key) return undefined
    const response = this.deref(responses[key])
    const content = (response.content ?? {}) as Record<string, Json>
    const json = content['application/json']
    const pointer = `${op.pointer}/responses/${esc(key)}/content/${esc('application/json')}/schema`
    return {key, pointer, schema: json?.schema as Json | undefined, content: Object.keys(content)}
  }

  /** The request body the operation takes: undefined when it takes none. */
  requestFor(op: Operation): {pointer: string; required: boolean; content: string[]; schema?: Json} | undefined {
    const raw = this.operation(op).requestBody as Json | undefined
    if (!raw) return undefined
    let pointer = `${op.pointer}/requestBody`
    let body = raw
    if (typeof raw.$ref === 'string') {
      pointer = raw.$ref.slice(1)
      body = this.deref(raw)
    }
    const content = (body.content ?? {}) as Record<string, Json>
    const json = content['application/json']
    return {
      pointer: `${pointer}/content/${esc('application/json')}/schema`,
      required: Boolean(body.required),
      content: Object.keys(content),
      schema: json?.schema as Json | undefined,
    }
  }

  /** The query parameters an operation declares (path-level ones too): name -> schema pointer and type. */
  queryParameters(op: Operation): Map<string, {pointer: string; type?: string}> {
    const out = new Map<string, {pointer: string; type?: string}>()
    const pathItem = `/paths/${esc(op.template)}`
    for (const base of [pathItem, op.pointer]) {
      const list = (resolvePointer(this.doc, `${base}/parameters`) ?? []) as Json[]
      list.forEach((raw, i) => {
        const p = this.deref(raw)
        if (p.in !== 'query') return
        const pointer = typeof raw.$ref === 'string' ? `${raw.$ref.slice(1)}/schema` : `${base}/parameters/${i}/schema`
        const schema = this.deref((p.schema ?? {}) as Json)
        const type = Array.isArray(schema.type)
          ? (schema.type as string[]).find((t) => t !== 'null')
          : (schema.type as string | undefined)
        out.set(String(p.name), {pointer, type})
      })
    }
    return out
  }

  /** Validates `value` against the schema at a JSON pointer of the document; the errors as readable lines. */
  validate(direction: Direction, pointer: string, value: unknown): string[] {
    const id = `contract-${direction}#${pointer}`
    let fn = this.cache.get(id)
    if (!fn) {
      fn = this.ajv[direction].getSchema(id)
      if (!fn) throw new Error(`no schema at ${pointer}`)
      this.cache.set(id, fn)
    }
    return fn(value) ? [] : describe(fn.errors ?? [])
  }

  /** A component or the target of a local `$ref` (one level). */
  deref(node: Json): Json {
    return typeof node.$ref === 'string' ? (resolvePointer(this.doc, node.$ref.slice(1)) as Json) : node
  }
}

export async function readContract(path = CONTRACT_PATH): Promise<Json> {
  const {parse} = await import('yaml')
  return parse(readFileSync(path, 'utf8')) as Json
}

function listOperations(doc: Json): Operation[] {
  const out: Operation[] = []
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined
      if (!op) continue
      const segments = template.split('/').filter(Boolean)
      const source = segments
        .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')
      out.push({
        key: `${method.toUpperCase()} ${template}`,
        method,
        template,
        operationId: op.operationId as string | undefined,
        pointer: `/paths/${esc(template)}/${method}`,
        literalSegments: segments.filter((s) => !s.startsWith('{')).length,
        regex: new RegExp(`^/${source}/?$`),
      })
    }
  }
  return out
}

/** Rewrites the document for one direction (see the module comment). */
function adapt(node: unknown, direction: Direction): unknown {
  if (Array.isArray(node)) return node.map((n) => adapt(n, direction))
  if (!node || typeof node !== 'object') return node
  const o = node as Json
  for (const k of Object.keys(o)) o[k] = adapt(o[k], direction)
  const props = o.properties as Record<string, Json> | undefined
  if (props && typeof props === 'object') {
    const hidden = direction === 'response' ? 'writeOnly' : 'readOnly'
    const names = Object.keys(props).filter((k) => props[k] && props[k][hidden] === true)
    if (names.length && Array.isArray(o.required))
      o.required = (o.required as string[]).filter((r) => !names.includes(r))
    if (direction === 'response')
      for (const n of names) props[n] = {not: {}, description: 'writeOnly: never in a response'}
  }
  const d = o.discriminator as {propertyName: string; mapping?: Record<string, string>} | undefined
  if (d && d.mapping && Array.isArray(o.oneOf ?? o.anyOf)) {
    const tag = d.propertyName
    delete o.oneOf
    delete o.anyOf
    delete o.discriminator
    const branches = Object.entries(d.mapping).map(([value, ref]) => ({
      if: {properties: {[tag]: {const: value}}, required: [tag]},
      then: {$ref: ref},
    }))
    o.allOf = [
      ...((o.allOf as unknown[]) ?? []),
      {required: [tag], properties: {[tag]: {enum: Object.keys(d.mapping)}}},
      ...branches,
    ]
  }
  return o
}

function esc(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1')
}

export function resolvePointer(doc: unknown, pointer: string): unknown {
  let cur = doc
  for (const raw of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    cur = (cur as Json | undefined)?.[key]
  }
  return cur
}

function describe(errors: ErrorObject[]): string[] {
  const lines = new Set<string>()
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'allOf') continue
    const at = e.instancePath || '(body)'
    const extra =
      e.keyword === 'enum'
        ? ` ${JSON.stringify((e.params as {allowedValues: unknown[]}).allowedValues).slice(0, 200)}`
        : ''
    lines.add(`${at} ${e.message}${extra}`)
  }
  return [...lines]
}
