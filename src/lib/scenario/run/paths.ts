/**
 * The small path syntax of flow files: `id`, `data[0].id`, `error.code`, `data.length`, and `$` (or
 * a leading `$.`) for the whole document. Variables are `${name}` or `${name.path}`; `${run.id}`
 * is unique per run and `${env.NAME}` reads the environment.
 */
export const PATH_RE = /^\$?(?:\.?[A-Za-z_][\w-]*|\[\d+\])*$/
export const VAR_NAME_RE = /^[A-Za-z_]\w*$/
const REF_RE = /\$\{([^}]*)\}/g

export function splitPath(path: string): Array<string | number> {
  const out: Array<string | number> = []
  for (const m of path.replace(/^\$/, '').matchAll(/\.?([A-Za-z_][\w-]*)|\[(\d+)\]/g))
    out.push(m[1] !== undefined ? m[1] : Number(m[2]))
  return out
}

const MISSING = Symbol('missing')

/** The value at `path` in `doc`, or undefined when any segment is missing. */
export function getPath(doc: unknown, path: string | Array<string | number>): unknown {
  const v = walk(doc, typeof path === 'string' ? splitPath(path) : path)
  return v === MISSING ? undefined : v
}

export function hasPath(doc: unknown, path: string): boolean {
  return walk(doc, splitPath(path)) !== MISSING
}

function walk(doc: unknown, parts: Array<string | number>): unknown {
  let cur: unknown = doc
  for (const p of parts) {
    if (Array.isArray(cur) && p === 'length') cur = cur.length
    else if (cur !== null && typeof cur === 'object' && Object.prototype.hasOwnProperty.call(cur, p))
      cur = (cur as Record<string | number, unknown>)[p]
    else return MISSING
  }
  return cur
}

/** Every `${...}` reference in a value (strings, arrays, objects), as written. */
export function references(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(REF_RE)].map((m) => m[1])
  if (Array.isArray(value)) return value.flatMap(references)
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [...references(k), ...references(v)])
  return []
}

/** The variable a reference names (`customer` in `customer.id`), or undefined when it is malformed. */
export function referenceRoot(ref: string): string | undefined {
  const m = /^([A-Za-z_]\w*)((?:\.[A-Za-z_][\w-]*|\[\d+\])*)$/.exec(ref.trim())
  return m ? m[1] : undefined
}

export class UnknownVariable extends Error {}

/**
 * Replaces `${...}` in strings, deeply. A string that is exactly one reference takes the value as it
 * is (a number stays a number in a body); inside a longer string it is written as text (JSON for objects).
 */
export function interpolate(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]*)\}$/.exec(value)
    if (whole) return lookup(whole[1], vars)
    return value.replace(REF_RE, (_, ref: string) => {
      const v = lookup(ref, vars)
      return typeof v === 'string' ? v : JSON.stringify(v)
    })
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars))
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [interpolate(k, vars) as string, interpolate(v, vars)]),
    )
  return value
}

function lookup(ref: string, vars: Record<string, unknown>): unknown {
  const root = referenceRoot(ref)
  if (!root || !(root in vars)) throw new UnknownVariable(`\${${ref}} names no variable`)
  const rest = ref.trim().slice(root.length)
  const v = getPath(vars[root], rest)
  if (v === undefined) throw new UnknownVariable(`\${${ref}}: ${root} has nothing at ${rest}`)
  return v
}

/** `customers create --full-name "Ada Lovelace"` -> argv, with '...' and "..." quoting as a shell does. */
export function splitArgs(line: string): string[] {
  const out: string[] = []
  let cur: string | undefined
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quote) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i]
      else cur += c
    } else if (/\s/.test(c)) {
      if (cur !== undefined) out.push(cur)
      cur = undefined
    } else if (c === '"' || c === "'") {
      quote = c
      cur ??= ''
    } else cur = (cur ?? '') + c
  }
  if (cur !== undefined) out.push(cur)
  return out
}
