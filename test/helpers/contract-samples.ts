import {resolvePointer} from './contract.js'

type Json = Record<string, unknown>

/**
 * Instances of a contract schema, for checking that the CLI's response schemas accept what the
 * contract allows. Deterministic: `variant` picks the n-th branch at every oneOf/anyOf/discriminator
 * (and the n-th enum value), so variants 0..k-1 visit every branch; `full` fills every optional
 * property, minimal only the required ones. Values come from the contract's `example`s where they
 * fit, else from type and format. Callers keep only samples the contract itself accepts.
 */
export function sample(doc: Json, schema: Json, opts: {variant: number; full: boolean}): unknown {
  return new Sampler(doc, opts.variant, opts.full).of(schema, 0)
}

/** How many variants it takes to visit every branch of the schema (the widest choice it contains, capped). */
export function variantCount(doc: Json, schema: Json, cap = 12): number {
  let widest = 1
  const seen = new Set<string>()
  const walk = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 12) return
    const o = node as Json
    if (typeof o.$ref === 'string') {
      if (seen.has(o.$ref)) return
      seen.add(o.$ref)
      return walk(resolvePointer(doc, o.$ref.slice(1)), depth + 1)
    }
    const d = o.discriminator as {mapping?: Record<string, string>} | undefined
    const branches = d?.mapping
      ? Object.keys(d.mapping).length
      : ((o.oneOf ?? o.anyOf) as unknown[] | undefined)?.length
    if (branches) widest = Math.max(widest, branches)
    if (Array.isArray(o.enum)) widest = Math.max(widest, Math.min(o.enum.length, 3))
    for (const v of Object.values(o)) walk(v, depth + 1)
  }
  walk(schema, 0)
  return Math.min(widest, cap)
}

class Sampler {
  constructor(
    private readonly doc: Json,
    private readonly variant: number,
    private readonly full: boolean,
  ) {}

  of(schema: Json | undefined, depth: number): unknown {
    if (!schema || depth > 14) return undefined
    if (typeof schema.$ref === 'string')
      return this.of(resolvePointer(this.doc, schema.$ref.slice(1)) as Json, depth + 1)
    if ('const' in schema) return schema.const
    const d = schema.discriminator as {propertyName: string; mapping?: Record<string, string>} | undefined
    if (d?.mapping) {
      const entries = Object.entries(d.mapping)
      const [tag, ref] = entries[this.variant % entries.length]
      const picked = this.of({$ref: ref}, depth + 1)
      return picked && typeof picked === 'object' ? {...(picked as Json), [d.propertyName]: tag} : picked
    }
    const choice = (schema.oneOf ?? schema.anyOf) as Json[] | undefined
    if (choice?.length) {
      const base = this.objectPart(schema, depth)
      const picked = this.of(choice[this.variant % choice.length], depth + 1)
      return base && picked && typeof picked === 'object' && !Array.isArray(picked)
        ? {...base, ...(picked as Json)}
        : picked
    }
    if (Array.isArray(schema.allOf)) {
      let out: unknown = this.objectPart(schema, depth)
      for (const part of schema.allOf as Json[]) {
        const v = this.of(part, depth + 1)
        out =
          out && v && typeof out === 'object' && typeof v === 'object' && !Array.isArray(v)
            ? deepMerge(out as Json, v as Json)
            : (v ?? out)
      }
      return out
    }
    if (Array.isArray(schema.enum)) return schema.enum[this.variant % schema.enum.length]
    const type = Array.isArray(schema.type)
      ? (schema.type as string[]).find((t) => t !== 'null')
      : (schema.type as string | undefined)
    if (type === 'object' || (!type && schema.properties)) return this.objectPart(schema, depth) ?? {}
    if (type === 'array') {
      // An empty list may be what the contract allows but not what a request means (an owner with no role).
      if (Array.isArray(schema.example) && schema.example.length) return schema.example
      const n = this.full || Number(schema.minItems ?? 0) > 0 ? Math.max(1, Number(schema.minItems ?? 1)) : 0
      return Array.from({length: n}, () => this.of(schema.items as Json, depth + 1))
    }
    return this.scalar(schema, type)
  }

  private objectPart(schema: Json, depth: number): Json | undefined {
    const props = schema.properties as Record<string, Json> | undefined
    if (!props) return undefined
    const required = new Set((schema.required as string[] | undefined) ?? [])
    const out: Json = {}
    for (const [name, sub] of Object.entries(props)) {
      if (!this.full && !required.has(name)) continue
      if (sub && (sub as Json).writeOnly === true) continue
      const v = this.of(sub, depth + 1)
      if (v !== undefined) out[name] = v
    }
    return out
  }

  private scalar(schema: Json, type: string | undefined): unknown {
    const ex = schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined)
    if (type === 'integer') return Number.isInteger(ex) ? ex : Math.max(Number(schema.minimum ?? 0), 1)
    if (type === 'number') return typeof ex === 'number' ? ex : 1.5
    if (type === 'boolean') return typeof ex === 'boolean' ? ex : this.variant % 2 === 0
    if (typeof ex === 'string') return ex
    switch (schema.format) {
      case 'date-time':
        return '2025-10-13T12:00:00Z'
      case 'date':
        return '2025-10-13'
      case 'email':
        return 'ada@example.com'
      case 'uri':
        return 'https://example.com/x'
      default:
        return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 6)))
    }
  }
}

function deepMerge(a: Json, b: Json): Json {
  const out: Json = {...a}
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k]
    out[k] =
      cur && v && typeof cur === 'object' && typeof v === 'object' && !Array.isArray(cur) && !Array.isArray(v)
        ? deepMerge(cur as Json, v as Json)
        : v
  }
  return out
}
