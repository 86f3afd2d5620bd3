import type {FieldError} from './errors.js'

/**
 * The bulk customer CSV (POST /customers/bulk/csv): its columns, a small RFC 4180 reader, and the
 * mapping of one row to the body POST /customers takes. Shared by the CLI (it refuses a file the
 * sandbox would refuse, before sending) and the sandbox (its import job), so both read a file alike.
 */

/** Columns of the published format, plus `currencies` (space/semicolon separated) and the business facts POST /customers requires. */
export const CSV_COLUMNS = [
  'umaAddress',
  'platformCustomerId',
  'customerType',
  'fullName',
  'birthDate',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'platformAccountId',
  'description',
  'email',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
  'businessIncorporatedOn',
  'currencies',
] as const
export const REQUIRED_COLUMNS = ['platformCustomerId', 'customerType'] as const
export const MAX_CSV_ROWS = 10_000
export const MAX_CSV_BYTES = 10 * 1024 * 1024

export class CsvError extends Error {}

/** Rows of a CSV text (quotes, doubled quotes, CRLF/LF, newlines inside quotes); blank lines skipped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const endRow = () => {
    row.push(field)
    if (row.length > 1 || row[0] !== '') rows.push(row)
    row = []
    field = ''
  }
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else {
        if (ch === '\n') line++
        field += ch
      }
    } else if (ch === '"') {
      if (field !== '') throw new CsvError(`line ${line}: a quote inside an unquoted field`)
      quoted = true
    } else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++
      endRow()
      line++
    } else field += ch
  }
  if (quoted) throw new CsvError(`line ${line}: a quoted field is never closed`)
  if (field !== '' || row.length) endRow()
  return rows
}

export interface CsvFile {
  header: string[]
  /** Data rows as column -> value (empty cells left out), with their 1-based line-of-data number. */
  records: Array<{row: number; values: Record<string, string>}>
}

/** Reads and checks a whole file: header columns known and complete, row widths, size. Problems name the file's part. */
export function readCustomerCsv(text: string): {file?: CsvFile; errors: FieldError[]} {
  let rows: string[][]
  try {
    rows = parseCsv(text)
  } catch (e) {
    return {errors: [{field: 'file', message: `is not valid CSV (${(e as Error).message})`}]}
  }
  if (!rows.length)
    return {errors: [{field: 'file', message: 'is empty (expected a header row and at least one customer)'}]}
  const header = rows[0].map((h) => h.trim())
  const errors: FieldError[] = []
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h))
  if (unknown.length)
    errors.push({
      field: 'file.header',
      message: `unknown column(s) ${unknown.join(', ')}; known: ${CSV_COLUMNS.join(', ')}`,
    })
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c))
  if (missing.length) errors.push({field: 'file.header', message: `missing required column(s) ${missing.join(', ')}`})
  const dup = header.filter((h, i) => header.indexOf(h) !== i)
  if (dup.length) errors.push({field: 'file.header', message: `repeated column(s) ${[...new Set(dup)].join(', ')}`})
  if (rows.length === 1) errors.push({field: 'file', message: 'has a header but no customer rows'})
  if (rows.length - 1 > MAX_CSV_ROWS)
    errors.push({field: 'file', message: `has ${rows.length - 1} rows; at most ${MAX_CSV_ROWS} per upload`})
  const ragged = rows.slice(1).findIndex((r) => r.length !== header.length)
  if (ragged >= 0)
    errors.push({
      field: 'file',
      message: `row ${ragged + 1} has ${rows[ragged + 1].length} cells; the header has ${header.length}`,
    })
  if (errors.length) return {errors}
  const records = rows.slice(1).map((cells, i) => {
    const values: Record<string, string> = {}
    header.forEach((h, j) => {
      const v = cells[j].trim()
      if (v !== '') values[h] = v
    })
    return {row: i + 1, values}
  })
  return {file: {header, records}, errors: []}
}

/** One row as a POST /customers body (the shared create schema then judges it). */
export function rowToCustomer(v: Record<string, string>): Record<string, unknown> {
  const address =
    v.addressLine1 || v.city || v.state || v.postalCode || v.country
      ? drop({
          line1: v.addressLine1,
          line2: v.addressLine2,
          city: v.city,
          state: v.state,
          postalCode: v.postalCode,
          country: v.country?.toUpperCase(),
        })
      : undefined
  const uma = v.umaAddress && !v.umaAddress.startsWith('$') ? `$${v.umaAddress}` : v.umaAddress
  const common = drop({
    customerType: v.customerType?.toUpperCase(),
    platformCustomerId: v.platformCustomerId,
    umaAddress: uma,
    email: v.email,
    currencies: v.currencies
      ? v.currencies
          .split(/[\s;]+/)
          .filter(Boolean)
          .map((c) => c.toUpperCase())
      : undefined,
    address,
  })
  if (common.customerType === 'BUSINESS') {
    const businessInfo = drop({
      legalName: v.businessLegalName,
      registrationNumber: v.businessRegistrationNumber,
      taxId: v.businessTaxId,
      incorporatedOn: v.businessIncorporatedOn,
      country: v.country?.toUpperCase(),
    })
    return {...common, businessInfo}
  }
  return {...common, ...drop({fullName: v.fullName, birthDate: v.birthDate})}
}

const COLUMN_OF: Record<string, string> = {
  'address.line1': 'addressLine1',
  'address.line2': 'addressLine2',
  'address.city': 'city',
  'address.state': 'state',
  'address.postalCode': 'postalCode',
  'address.country': 'country',
  address: 'addressLine1',
  'businessInfo.legalName': 'businessLegalName',
  'businessInfo.registrationNumber': 'businessRegistrationNumber',
  'businessInfo.taxId': 'businessTaxId',
  'businessInfo.incorporatedOn': 'businessIncorporatedOn',
  'businessInfo.country': 'country',
  businessInfo: 'businessLegalName',
}

/** The CSV column a schema path refers to, so a row error names what to fix in the file. */
export function columnOf(field: string): string {
  if (COLUMN_OF[field]) return COLUMN_OF[field]
  if (field.startsWith('currencies')) return 'currencies'
  return field
}

function drop<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined && x !== ''))
}
