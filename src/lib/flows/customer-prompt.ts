import type {z} from 'zod'
import {cancelled} from '../errors.js'
import {customerFlags} from '../flags-customer.js'
import {describeAddress, describeValue} from '../output/customer.js'
import type {Output} from '../output/output.js'
import {promptConfirm, promptSelect, promptText} from '../prompts.js'
import {businessCreate, individualCreate} from '../schemas/customer.js'

type Body = Record<string, unknown>

/** The flag that sets each field, so a prompt reads like the flag's help and says how to script it. */
export const FLAG_OF: Record<string, keyof typeof customerFlags> = {
  fullName: 'full-name', birthDate: 'birth-date', nationality: 'nationality', email: 'email', phoneNumber: 'phone',
  'businessInfo.legalName': 'legal-name', 'businessInfo.country': 'country', 'businessInfo.taxId': 'tax-id',
  'businessInfo.incorporatedOn': 'incorporated-on', 'businessInfo.registrationNumber': 'registration-number',
  'businessInfo.entityType': 'entity-type', 'address.line1': 'address-line1', 'address.city': 'address-city',
  'address.postalCode': 'address-postal-code', 'address.country': 'address-country',
}

/** Not required by the API, but a customer without a name is of no use to anyone: asked for too. */
const ALSO_ASKED: Record<string, string[]> = {INDIVIDUAL: ['fullName'], BUSINESS: []}

const isRequired = (s: z.ZodType): boolean => !s.safeParse(undefined).success
const shapeOf = (s: z.ZodType): Record<string, z.ZodType> | undefined => (s as unknown as {shape?: Record<string, z.ZodType>}).shape

/** The leaf fields the create schema of this type requires (dot paths), walking nested objects. */
export function requiredFields(type: 'INDIVIDUAL' | 'BUSINESS'): Array<{path: string; schema: z.ZodType}> {
  const root = type === 'INDIVIDUAL' ? individualCreate : businessCreate
  const out: Array<{path: string; schema: z.ZodType}> = []
  const walk = (shape: Record<string, z.ZodType>, prefix: string, all: boolean) => {
    for (const [key, schema] of Object.entries(shape)) {
      const path = prefix + key
      if (path === 'customerType') continue
      const nested = shapeOf(schema)
      const asked = all || isRequired(schema) || ALSO_ASKED[type].includes(path)
      if (nested && isRequired(schema)) walk(nested, `${path}.`, false)
      else if (asked && !nested) out.push({path, schema: unwrapOptional(schema)})
    }
  }
  walk(shapeOf(root)!, '', false)
  return out
}

function unwrapOptional(s: z.ZodType): z.ZodType {
  const inner = (s as unknown as {unwrap?: () => z.ZodType}).unwrap
  return s.safeParse(undefined).success && inner ? inner.call(s) : s
}

const get = (body: Body, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Body)[k] : undefined), body)

function set(body: Body, path: string, value: unknown): void {
  const keys = path.split('.')
  let o = body
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Body
  o[keys.at(-1)!] = value
}

function label(path: string): string {
  const flag = FLAG_OF[path]
  const text = flag ? (customerFlags[flag] as {description?: string}).description?.replace(/^(individual|business): /, '') : undefined
  return `${path.split('.').at(-1)}${text ? ` — ${text}` : ''}${flag ? ` [--${flag}]` : ''}`
}

/**
 * On a terminal, asks for what the flags left out: the customer type, then every field the
 * create schema of that type requires (each answer checked with that field's own schema), shows
 * the whole request, and asks before sending. Returns the body, or undefined when nothing was asked.
 */
export async function completeCustomerInteractively(out: Output, given: Body): Promise<Body | undefined> {
  const body: Body = structuredClone(given)
  let asked = false
  if (!body.customerType) {
    body.customerType = await promptSelect('Customer type', ['INDIVIDUAL', 'BUSINESS'])
    asked = true
  }
  const type = body.customerType as 'INDIVIDUAL' | 'BUSINESS'
  if (type !== 'INDIVIDUAL' && type !== 'BUSINESS') return undefined
  for (const {path, schema} of requiredFields(type)) {
    if (get(body, path) !== undefined) continue
    const answer = await promptText(label(path), {
      validate: (v) => {
        const r = schema.safeParse(v.trim())
        return r.success || (r.error.issues[0]?.message ?? 'invalid')
      },
    })
    set(body, path, answer.trim())
    asked = true
  }
  // Asked once anything else is: a customer without currencies gets only the platform's (USD) account.
  if (asked && body.currencies === undefined) body.currencies = await promptCurrencies()
  if (!asked) return undefined
  out.info('')
  out.info(out.bold('About to create:'))
  for (const line of summary(body)) out.info(`  ${line}`)
  if (!(await promptConfirm('Create this customer?', true))) throw cancelled('Not created; nothing was sent.')
  return body
}

async function promptCurrencies(): Promise<string[]> {
  const split = (v: string) => v.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase())
  const answer = await promptText('currencies — the customer transacts in, comma-separated [--currency]', {
    default: 'USD',
    validate: (v) => {
      const codes = split(v)
      const bad = codes.find((c) => !/^[A-Z]{3,5}$/.test(c))
      return !codes.length ? 'name at least one (USD, EUR, USDC ...)' : bad ? `${bad} is not a currency code (USD, USDC ...)` : true
    },
  })
  return [...new Set(split(answer))]
}

function summary(body: Body): string[] {
  const rows: Array<[string, string | undefined]> = []
  for (const [k, v] of Object.entries(body)) {
    if (k === 'businessInfo' && v && typeof v === 'object') for (const [bk, bv] of Object.entries(v)) rows.push([bk, describeValue(bv)])
    else rows.push([k, k === 'address' ? describeAddress(v) : describeValue(v)])
  }
  const shown = rows.filter(([, v]) => v !== undefined)
  const width = Math.max(...shown.map(([k]) => k.length))
  return shown.map(([k, v]) => `${k.padEnd(width)}  ${v}`)
}
