import type {Doc, Situation} from './read.js'
import type {StepList} from './steps.js'

/**
 * What an onboarding is made of, as items: a field, the terms, a contact channel, the documents of a
 * holder, owners of a role. A submission's errors name the items it lacked; the remote customer
 * shows the items it has now.
 */
export type Item = string

/** The error types a replay can make the sandbox report again, by withholding the item. */
const REPRODUCIBLE = new Set([
  'MISSING_FIELD',
  'MISSING_IDENTITY_DOCUMENT',
  'MISSING_LEGAL_PRESENCE_DOCUMENT',
  'MISSING_BENEFICIAL_OWNER',
  'MISSING_CONTROL_PERSON',
])
export const reproducible = (e: Doc) =>
  REPRODUCIBLE.has(String(e.type)) && (e.type !== 'MISSING_FIELD' || typeof e.field === 'string')

/** The items a submission reported missing; an error type nothing here can withhold is reported. */
export function missingItems(v: Doc, out: StepList): Item[] {
  const items: Item[] = []
  for (const e of (v.errors as Doc[]) ?? []) {
    if (e.type === 'MISSING_FIELD' && typeof e.field === 'string') items.push(fieldItem(e.field))
    else if (e.type === 'MISSING_IDENTITY_DOCUMENT' || e.type === 'MISSING_LEGAL_PRESENCE_DOCUMENT')
      items.push(`docs:${e.resourceId}`)
    else if (e.type === 'MISSING_BENEFICIAL_OWNER') items.push('owners:UBO')
    else if (e.type === 'MISSING_CONTROL_PERSON') items.push('owners:CONTROL_PERSON')
    else
      out.cannot(
        `verification error ${e.type} of ${v.id} (no sandbox control produces it; that submission is checked by its status only)`,
      )
  }
  return items
}

/** Owners of a missing role are withheld, and an owner's documents with the owner. */
export function expand(s: Situation, items: Item[]): Item[] {
  const roles = items.filter((i) => i.startsWith('owners:')).map((i) => i.slice(7))
  const owners = s.owners.filter((o) => (o.roles as string[]).some((r) => roles.includes(r))).map((o) => String(o.id))
  return [...items.filter((i) => !i.startsWith('owners:')), ...owners.flatMap((id) => [`owner:${id}`, `docs:${id}`])]
}

function fieldItem(field: string): Item {
  if (field === 'endUserTermsConsent') return 'terms'
  if (field.startsWith('contactVerification.')) return `contact:${field.slice('contactVerification.'.length)}`
  // identifier goes with idType (write-only, never shown back)
  return `field:${field === 'identifier' ? 'idType' : field}`
}

const PERSONAL_FIELDS = ['fullName', 'birthDate', 'nationality', 'address', 'idType']
const BUSINESS_FIELDS = ['address', 'businessInfo.registrationNumber']

/** Every item the remote customer has now, in the order the flow adds them. */
export function presentItems(s: Situation): Item[] {
  const c = s.customer
  const fields = (c.customerType === 'BUSINESS' ? BUSINESS_FIELDS : PERSONAL_FIELDS)
    .filter((f) => get(c, f) !== undefined)
    .map((f) => `field:${f}`)
  const contacts = Object.entries((c.contactVerification as Record<string, string>) ?? {})
    .filter(([, v]) => v === 'VERIFIED')
    .map(([k]) => `contact:${k}`)
  const owners = s.owners.flatMap((o) => [`owner:${o.id}`])
  const docs = Object.keys(s.documents)
    .filter((h) => s.documents[h].length)
    .map((h) => `docs:${h}`)
  return [...fields, ...(c.endUserTermsConsent ? ['terms'] : []), ...contacts, ...owners, ...docs]
}

/** The value at a dotted path (businessInfo.registrationNumber). */
export function get(o: Doc, path: string): unknown {
  return path.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Doc)[k] : undefined), o)
}
