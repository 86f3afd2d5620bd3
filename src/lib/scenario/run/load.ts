import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {InputError, type FieldError} from '../../errors.js'
import type * as z from 'zod'
import type {SandboxSettingsPatch} from '../../schemas/config.js'
import {flowFile, type FlowFile} from '../../schemas/flow.js'
import {references, referenceRoot} from './paths.js'

export interface LoadedFlow {
  flow: FlowFile
  /** 1-based line of each step in the file. */
  stepLines: number[]
}

export interface FlowFieldError extends FieldError {
  line?: number
  step?: string
}

/** Built-in variables: `${run.id}` (unique per run) and `${env.NAME}`. */
export const BUILTIN_VARS = ['run', 'env']

/**
 * Reads and checks a flow file before anything runs: YAML syntax, the zod schema, and that every
 * ${...} names a variable known at that step. Every problem comes back at once with its line and
 * step (exit 2).
 */
export async function loadFlow(file: string): Promise<LoadedFlow> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new InputError(
      [{field: 'file', message: `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`}],
      `Cannot read the flow file ${file}`,
    )
  }
  // Loaded here only (flow commands pay for the parser), with require: the CLI bundle keeps yaml out
  // of the file every command reads, and bundled code restored from a code cache cannot import().
  const {parseDocument, LineCounter} = createRequire(import.meta.url)('yaml') as typeof import('yaml')
  const lines = new LineCounter()
  const doc = parseDocument(text, {lineCounter: lines, prettyErrors: false, uniqueKeys: true})
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line)
  if (doc.errors.length) {
    throw invalidFlow(
      file,
      doc.errors.map((e) => ({field: '(yaml)', message: e.message.split('\n')[0], line: lineOf(e.pos[0])})),
    )
  }
  const data = doc.toJS({maxAliasCount: 100}) as unknown
  const nodeLine = (path: Array<string | number>): number | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as {range?: [number, number, number]} | undefined
      if (node?.range) return lineOf(node.range[0])
    }
    return undefined
  }
  const raw = data as {vars?: unknown; steps?: Array<{name?: unknown}>} | null
  const stepName = (i: unknown) =>
    typeof i === 'number' && typeof raw?.steps?.[i]?.name === 'string' ? (raw.steps[i].name as string) : undefined
  const r = flowFile.safeParse(data)
  const settings = await checkSettings(raw)
  const errors: FlowFieldError[] = []
  for (const issue of [...(r.success ? [] : r.error.issues), ...settings.issues]) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
    // An unknown key is reported at the key itself.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined]
    for (const key of keys) {
      const full = key === undefined ? path : [...path, key]
      errors.push({
        field: fieldName(full),
        message: key === undefined ? describe(issue, path) : 'is not a known field',
        line: nodeLine(full),
        step: path[0] === 'steps' ? stepName(path[1]) : undefined,
      })
    }
  }
  // Each ${...} must name a variable known by then: vars, built-ins, or a capture of an earlier step
  // (checked on the file as written, so these come with the schema's findings).
  const known = new Set([...BUILTIN_VARS, ...Object.keys(isObject(raw?.vars) ? raw.vars : {})])
  for (const [name, value] of Object.entries(isObject(raw?.vars) ? raw.vars : {}))
    checkRefs(value, ['vars', name], new Set(BUILTIN_VARS), errors, nodeLine)
  for (const [i, step] of (Array.isArray(raw?.steps) ? (raw.steps as unknown[]) : []).entries()) {
    if (!isObject(step)) continue
    const {capture, name: _name, ...rest} = step
    checkRefs(rest, ['steps', i], known, errors, nodeLine, stepName(i))
    for (const v of Object.keys(isObject(capture) ? capture : {})) known.add(v)
  }
  errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  if (errors.length) throw invalidFlow(file, errors)
  const flow: FlowFile = {...r.data!, ...(settings.data ? {sandbox: settings.data} : {})}
  return {flow, stepLines: flow.steps.map((_, i) => nodeLine(['steps', i]) ?? 0)}
}

/** The file's `sandbox:` settings, read with the sandbox's settings schema (loaded only when there are some). */
async function checkSettings(raw: unknown): Promise<{issues: z.core.$ZodIssue[]; data?: SandboxSettingsPatch}> {
  const given = isObject(raw) ? raw.sandbox : undefined
  if (!isObject(given)) return {issues: []} // absent, or not an object: the flow schema says so
  const {sandboxSettingsPatch} = await import('../../schemas/config.js')
  const r = sandboxSettingsPatch.safeParse(given)
  if (r.success) return {issues: [], data: r.data}
  return {issues: r.error.issues.map((issue) => ({...issue, path: ['sandbox', ...issue.path]}))}
}

function checkRefs(
  value: unknown,
  at: Array<string | number>,
  known: Set<string>,
  errors: FlowFieldError[],
  nodeLine: (p: Array<string | number>) => number | undefined,
  step?: string,
): void {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      checkRefs(v, [...at, Array.isArray(value) ? Number(k) : k], known, errors, nodeLine, step)
    return
  }
  for (const ref of references(value)) {
    const root = referenceRoot(ref)
    const message = !root
      ? `\${${ref}} is not a variable reference (use \${name} or \${name.path})`
      : !known.has(root)
        ? `\${${ref}} names no variable known here (set it in vars or capture it in an earlier step)`
        : undefined
    if (message) errors.push({field: fieldName(at), message, line: nodeLine(at), step})
  }
}

function fieldName(path: Array<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('') || '(file)'
}

function invalidFlow(file: string, errors: FlowFieldError[]): InputError {
  const where = (e: FlowFieldError) =>
    `${e.line ? `line ${e.line}` : ''}${e.step ? `${e.line ? ', ' : ''}step "${e.step}"` : ''}`
  const listed = errors.map((e) => ({...e, message: where(e) ? `${e.message} (${where(e)})` : e.message}))
  return new InputError(
    listed,
    `The flow file ${file} is invalid: ${errors.length} problem${errors.length === 1 ? '' : 's'}; nothing was run`,
    'Fix the fields listed (with their lines); nothing was run.',
  )
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v)

/** zod's message, said the way the rest of svc says it. */
function describe(issue: {code: string; message: string; input?: unknown}, path: Array<string | number>): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required'
  if (issue.code === 'invalid_key')
    return path.includes('capture')
      ? 'must be a variable name (letters, digits, _)'
      : 'must be a path like id, data[0].id or $ (the whole document)'
  return issue.message
}
