import {digits, pad, pick, sameShape, seededRng} from './fake-draw.js'
import {wordLists, type WordLists} from './fake-words.js'

/**
 * Realistic stand-ins for personal data, deterministic from a seed (one per capture) and consistent
 * within a flow: the same original value of the same kind always gets the same fake. Only the kinds
 * of field replaced are remembered for the flow's header, never the original values.
 */
export type FakeKind =
  | 'full name'
  | 'email'
  | 'phone'
  | 'birth date'
  | 'address'
  | 'tax id / ID number'
  | 'document number'
  | 'account identifier'
  | 'beneficiary name'
  | 'business name'
  | 'platformCustomerId'
  | 'UMA address'

export class Fakes {
  private readonly byOriginal = new Map<string, unknown>()
  private readonly kinds = new Set<FakeKind>()
  private counter = 0
  private readonly lists: WordLists

  /** `avoid`: words no fake may contain (see personalWords). */
  constructor(
    private readonly seed: string,
    avoid: ReadonlySet<string> = new Set(),
  ) {
    this.lists = wordLists(avoid)
  }

  private personName = (r: () => number) => `${pick(r, this.lists.given)} ${pick(r, this.lists.family)}`

  /** The kinds of field replaced so far, in a stable order. */
  replacedKinds(): FakeKind[] {
    return [...this.kinds].sort()
  }

  /** A deterministic generator for one (kind, original) pair: the same input gives the same output. */
  private rng(kind: string, original: string, salt = 0): () => number {
    return seededRng(`${this.seed}\u0000${kind}\u0000${original}\u0000${salt}`)
  }

  /**
   * `space` groups kinds that must agree: a person's name is the same fake as customer, owner or
   * beneficiary. A fake never equals its original (a birth date drawn by chance), so another draw is made.
   */
  private memo<T>(kind: FakeKind, original: string, make: (r: () => number) => T, space: string = kind): T {
    const key = `${space}\u0000${original}`
    if (!this.byOriginal.has(key)) {
      let fake = make(this.rng(space, original))
      for (let salt = 1; salt < 100 && fake === original; salt++) fake = make(this.rng(space, original, salt))
      this.byOriginal.set(key, fake)
    }
    this.kinds.add(kind)
    return this.byOriginal.get(key) as T
  }

  /** Given and family name; `suffix` is the sandbox's outcome trigger (e.g. 002 = rejected). */
  fullName(original: string, suffix = ''): string {
    return this.memo('full name', original, this.personName, 'person') + suffix
  }

  /** An owner's names, given and family apart (the family name carries the owner suffix). */
  ownerName(first: string, last: string): {firstName: string; lastName: string} {
    const [firstName, lastName] = this.fullName(`${first} ${last}`).split(' ')
    return {firstName, lastName}
  }

  email(original: string): string {
    return this.memo('email', original, (r) =>
      `${pick(r, this.lists.given)}.${pick(r, this.lists.family)}${Math.floor(r() * 90 + 10)}@example.com`.toLowerCase(),
    )
  }

  /** US numbers in the 555-01xx range, reserved for fiction. */
  phone(original: string): string {
    return this.memo('phone', original, (r) => `+1${200 + Math.floor(r() * 700)}55501${digits(r, 2)}`)
  }

  birthDate(original: string): string {
    return this.memo(
      'birth date',
      original,
      (r) => `${1955 + Math.floor(r() * 45)}-${pad(1 + Math.floor(r() * 12))}-${pad(1 + Math.floor(r() * 28))}`,
    )
  }

  /** Street, number, city and postal code are invented; the country (and state) stay, they drive rules. */
  address(original: Record<string, unknown>): Record<string, unknown> {
    return this.memo('address', JSON.stringify(original), (r) => ({
      line1: `${100 + Math.floor(r() * 8900)} ${pick(r, this.lists.streets)}`,
      city: pick(r, this.lists.cities),
      ...(original.state ? {state: original.state} : {}),
      postalCode:
        typeof original.postalCode === 'string' && /^\d+$/.test(original.postalCode)
          ? digits(r, original.postalCode.length)
          : `${digits(r, 5)}`,
      country: original.country,
    }))
  }

  /** An SSN-shaped number outside the 9xx (ITIN) and 000/666 areas, or an ITIN when the original was one. */
  taxId(original: string): string {
    return this.memo('tax id / ID number', original, (r) =>
      original.startsWith('9')
        ? `9${digits(r, 2)}-7${digits(r, 1)}-${digits(r, 4)}`
        : `${200 + Math.floor(r() * 400)}-${10 + Math.floor(r() * 89)}-${1000 + Math.floor(r() * 8999)}`,
    )
  }

  /** A business tax id: every digit and letter replaced by one of the same class (the format stays valid). */
  businessTaxId(original: string, valid: (v: string) => boolean): string {
    return this.memo(
      'tax id / ID number',
      original,
      (r) => sameShape(r, original, 0, 0, valid) ?? original.replace(/\d/g, '1'),
    )
  }

  documentNumber(original: string): string {
    return this.memo('document number', original, (r) => sameShape(r, original, 0, 0, () => true) ?? 'X0000000')
  }

  businessName(original: string, suffix = ''): string {
    return (
      this.memo(
        'business name',
        original,
        (r) => `${pick(r, this.lists.companies)} ${pick(r, this.lists.trades)} LLC`,
        'business',
      ) + suffix
    )
  }

  beneficiaryName(original: string): string {
    return this.memo('beneficiary name', original, this.personName, 'person')
  }

  platformCustomerId(original: string): string {
    return this.memo('platformCustomerId', original, (r) => `capture-${digits(r, 8)}`)
  }

  /** Marks that UMA addresses were dropped (the sandbox assigns its own). */
  droppedUmaAddress(): void {
    this.kinds.add('UMA address')
  }

  /**
   * An account identifier of the same shape whose last 3 characters are `suffix` (the sandbox's
   * outcome trigger) and which passes `valid` (check digits, checksums); `keepPrefix` characters
   * (bank and country codes) stay. Undefined when no such identifier turns up.
   */
  accountIdentifier(
    original: string,
    suffix: string,
    keepPrefix: number,
    valid: (v: string) => boolean,
  ): string | undefined {
    const key = `${original}\u0000${suffix}`
    const k = `account identifier\u0000${key}`
    if (!this.byOriginal.has(k)) {
      const r = this.rng('account identifier', key, this.counter++)
      const base = original.slice(0, original.length - 3) + suffix
      this.byOriginal.set(k, sameShape(r, base, keepPrefix, 3, valid))
    }
    this.kinds.add('account identifier')
    return this.byOriginal.get(k) as string | undefined
  }
}
