import {withArticle} from '../article.js'
/** Tax-id formats by country of incorporation (spec 2.1: taxId is validated against country). */

function cnpjValid(raw: string): boolean {
  const d = raw.replace(/\D/g, '')
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d)) return false
  const digit = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    const sum = weights.reduce((acc, w, i) => acc + w * Number(d[i]), 0)
    const r = sum % 11
    return r < 2 ? 0 : 11 - r
  }
  return digit(12) === Number(d[12]) && digit(13) === Number(d[13])
}

interface TaxIdRule {
  name: string
  example: string
  /** The format, reported as `constraint.pattern` (CNPJ also needs its check digits). */
  pattern: RegExp
  test?: (v: string) => boolean
}

const RULES: Record<string, TaxIdRule> = {
  US: {name: 'EIN', example: '12-3456789', pattern: /^\d{2}-?\d{7}$/},
  GB: {
    name: 'UTR, VAT or company number',
    example: '1234567890',
    pattern: /^(\d{10}|GB\d{9}(\d{3})?|[A-Z0-9]{2}\d{6})$/,
  },
  DE: {
    name: 'Steuernummer or USt-IdNr',
    example: 'DE123456789',
    pattern: /^(DE\d{9}|\d{10,11}|\d{2,3}\/\d{3,4}\/\d{4,5})$/,
  },
  MX: {
    name: 'RFC',
    example: 'ABC010203XY9',
    pattern: /^[A-ZÑ&]{3,4}\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[A-Z0-9]{3}$/,
  },
  BR: {name: 'CNPJ', example: '11.222.333/0001-81', pattern: /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/, test: cnpjValid},
}

/** Returns an error message when `taxId` does not fit `country`'s format, else undefined. */
export function taxIdProblem(country: string, taxId: string): string | undefined {
  const rule = RULES[country]
  if (!rule) return taxId.trim().length === 0 ? 'must not be empty' : undefined
  return rule.pattern.test(taxId) && (rule.test?.(taxId) ?? true)
    ? undefined
    : `must be ${withArticle(country)} ${rule.name} (e.g. ${rule.example})`
}

/** The pattern a `country`'s tax id must match, for `constraint.pattern` (undefined: any non-empty id). */
export function taxIdPattern(country: string): string | undefined {
  return RULES[country]?.pattern.source
}
