/**
 * The words fakes are made of, and the words they must not contain: a fake holding a word of the
 * original's personal data would read as a leak of it.
 */
const GIVEN = [
  'Lucia',
  'Mateo',
  'Sofia',
  'Daniel',
  'Valeria',
  'Tomas',
  'Camila',
  'Julian',
  'Elena',
  'Adrian',
  'Irene',
  'Hugo',
  'Nadia',
  'Oscar',
  'Paula',
  'Rafael',
]
const FAMILY = [
  'Navarro',
  'Quintero',
  'Salinas',
  'Ibarra',
  'Montoya',
  'Delgado',
  'Cabrera',
  'Fuentes',
  'Lozano',
  'Pacheco',
  'Serrano',
  'Villalobos',
  'Arroyo',
  'Benitez',
  'Escobar',
  'Galindo',
]
const STREETS = [
  'Oak Hollow Rd',
  'Maple Crest Ave',
  'Birch Lane',
  'Harbor View Dr',
  'Cedar Park Blvd',
  'Willow Bend Ct',
  'Juniper St',
  'Aspen Ridge Way',
]
const CITIES = ['Riverton', 'Lakewood', 'Fairview', 'Brookfield', 'Greenville', 'Ashford', 'Milton', 'Clearwater']
const COMPANIES = [
  'Northwind',
  'Bluepeak',
  'Silverline',
  'Brightfield',
  'Ironbridge',
  'Clearwater',
  'Redstone',
  'Greenhollow',
]
const TRADES = ['Trading', 'Logistics', 'Studios', 'Holdings', 'Labs']

/** Keys whose values are someone's own words: names, streets, cities, the local part of an e-mail. */
const PERSONAL_KEYS = new Set([
  'fullName',
  'firstName',
  'middleName',
  'lastName',
  'legalName',
  'doingBusinessAs',
  'primaryContactFirstName',
  'primaryContactLastName',
  'line1',
  'line2',
  'city',
  'email',
])

/**
 * The words (three letters or more, lower case) of every personal value in these documents, at any
 * depth. A fake that contained one (an owner called Park, a fake street "Cedar Park Blvd") would read
 * as a leak of the original, so the fakes' word lists leave such entries out.
 */
export function personalWords(docs: unknown[]): Set<string> {
  const words = new Set<string>()
  const walk = (v: unknown, key?: string): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, key)
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k)
    else if (typeof v === 'string' && key && PERSONAL_KEYS.has(key)) {
      const text = key === 'email' ? v.split('@')[0] : v
      for (const w of text.toLowerCase().split(/[^\p{L}]+/u)) if (w.length >= 3) words.add(w)
    }
  }
  walk(docs)
  return words
}

export type WordLists = Record<'given' | 'family' | 'streets' | 'cities' | 'companies' | 'trades', readonly string[]>

/** The word lists without entries that contain one of `avoid` (a list is kept whole rather than emptied). */
export function wordLists(avoid: ReadonlySet<string>): WordLists {
  const usable = (list: readonly string[]) => {
    const kept = list.filter((entry) => ![...avoid].some((w) => entry.toLowerCase().includes(w)))
    return kept.length ? kept : list
  }
  return {
    given: usable(GIVEN),
    family: usable(FAMILY),
    streets: usable(STREETS),
    cities: usable(CITIES),
    companies: usable(COMPANIES),
    trades: usable(TRADES),
  }
}
