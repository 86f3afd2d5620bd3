import type {z} from 'zod'
import {InputError, cancelled, type FieldError} from '../../errors.js'
import {fieldErrors} from '../../schemas/field-errors.js'
import {customerFlags} from '../../flags-customer.js'
import {describeAddress, describeValue} from '../../output/customer.js'
import type {Output} from '../../output/output.js'
import {promptConfirm, promptSelect, promptText} from '../../prompts.js'
import {businessCreate, individualCreate} from '../../schemas/customer.js'

type Body = Record<string, unknown>

/** The flag that sets each field, so a prompt reads like the flag's help and says how to script it. */
export const FLAG_OF: Record<string, keyof typeof customerFlags> = {
  fullName: 'full-name',
  birthDate: 'birth-date',
  nationality: 'nationality',
  email: 'email',
  phoneNumber: 'phone',
  'businessInfo.legalName': 'legal-name',
  'businessInfo.country': 'country',
  'businessInfo.taxId': 'tax-id',
  'businessInfo.incorporatedOn': 'incorporated-on',
  'businessInfo.registrationNumber': 'registration-number',
  'businessInfo.entityType': 'entity-type',
  'address.line1': 'address-line1',
  'address.city': 'address-city',
  'address.postalCode': 'address-postal-code',
  'address.country': 'address-country',
}

/** Not required by the API, but a customer without a name is of no use to anyone: asked for too. */
const ALSO_ASKED: Record<string, string[]> = {INDIVIDUAL: ['fullName'], BUSINESS: []}

const isRequired = (s: z.ZodType): boolean => !s.safeParse(undefined).success
const shapeOf = (s: z.ZodType): Record<string, z.ZodType> | undefined =>
  (s as unknown as {shape?: Record<string, z.ZodType>}).shape

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

const get = (body: Body, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Body)[k] : undefined), body)

function set(body: Body, path: string, value: unknown): void {
  const keys = path.split('.')
  let o = body
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Body
  o[keys.at(-1)!] = value
}

function label(path: string): string {
  const flag = FLAG_OF[path]
  const text = flag
    ? (customerFlags[flag] as {description?: string}).description?.replace(/^(individual|business): /, '')
    : undefined
  return `${path.split('.').at(-1)}${text ? ` — ${text}` : ''}${flag ? ` [--${flag}]` : ''}`
}

/**
 * On a terminal, asks for what the flags left out: the customer type, then every field the
 * create schema of that type requires (each answer checked against the whole schema as typed), shows
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
  const root = type === 'INDIVIDUAL' ? individualCreate : businessCreate
  refuseBadGiven(root, body)
  for (const {path} of requiredFields(type)) {
    if (get(body, path) !== undefined) continue
    const answer = await promptText(label(path), {validate: (v) => answerProblem(root, body, path, v.trim()) ?? true})
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
  const split = (v: string) =>
    v
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((c) => c.toUpperCase())
  const answer = await promptText('currencies — the customer transacts in, comma-separated [--currency]', {
    default: 'USD',
    validate: (v) => {
      const codes = split(v)
      const bad = codes.find((c) => !/^[A-Z]{3,5}$/.test(c))
      return !codes.length
        ? 'name at least one (USD, EUR, USDC ...)'
        : bad
          ? `${bad} is not a currency code (USD, USDC ...)`
          : true
    },
  })
  return [...new Set(split(answer))]
}

/**
 * What is wrong with `value` as the answer for `path`, judged by the whole create schema rather than
 * the field's own: a tax id is only valid for its country (a refinement on businessInfo), so `123`
 * passes the field's schema and would fail only after the confirmation. Also reported: a problem the
 * answer causes in a field given earlier (a country that the --tax-id given does not fit).
 */
export function answerProblem(root: z.ZodType, body: Body, path: string, value: string): string | undefined {
  const problems = (v: unknown) => problemsOf(root, v === undefined ? body : withAnswer(body, path, v))
  const issues = problems(value)
  const own = issues.find((i) => i.field === path)
  if (own) return own.message
  const before = new Set(problems(undefined).map((i) => `${i.field}\n${i.message}`))
  const caused = issues.find((i) => get(body, i.field) !== undefined && !before.has(`${i.field}\n${i.message}`))
  return (
    caused &&
    `${caused.field.split('.').at(-1)}${FLAG_OF[caused.field] ? ` (--${FLAG_OF[caused.field]})` : ''} ${caused.message}`
  )
}

/** The problems of a (partial) body in the flags' own words: fieldErrors, as `checkCreate` reports them. */
function problemsOf(root: z.ZodType, body: Body): FieldError[] {
  const r = root.safeParse(body)
  return r.success ? [] : fieldErrors(r.error)
}

function withAnswer(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body)
  set(copy, path, value)
  return copy
}

/** Values given as flags or --data are checked before anything is asked: nobody answers prompts for a request that must fail. */
function refuseBadGiven(root: z.ZodType, body: Body): void {
  const bad = problemsOf(root, body).filter((e) => get(body, e.field) !== undefined)
  if (bad.length) throw new InputError(bad)
}

function summary(body: Body): string[] {
  const rows: Array<[string, string | undefined]> = []
  for (const [k, v] of Object.entries(body)) {
    if (k === 'businessInfo' && v && typeof v === 'object')
      for (const [bk, bv] of Object.entries(v)) rows.push([bk, describeValue(bv)])
    else rows.push([k, k === 'address' ? describeAddress(v) : describeValue(v)])
  }
  const shown = rows.filter(([, v]) => v !== undefined)
  const width = Math.max(...shown.map(([k]) => k.length))
  return shown.map(([k, v]) => `${k.padEnd(width)}  ${v}`)
}
