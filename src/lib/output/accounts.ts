import type {
  ExternalAccountView,
  InternalAccountView,
  OwnershipChallenge,
  PaymentInstruction,
} from '../schemas/accounts.js'
import {formatCurrencyAmount, plainAmount, currencyOf, relativeTime} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue} from './render.js'
import {type Column, type ListView, renderList} from './table.js'

type Page<T> = {data: T[]; hasMore: boolean; totalCount?: number; nextCursor?: string}

const INSTRUCTION_FIELDS = [
  'accountNumber',
  'routingNumber',
  'bankName',
  'bankAccountType',
  'clabeNumber',
  'iban',
  'swiftCode',
  'sortCode',
  'address',
  'assetType',
  'network',
  'invoice',
  'qrCode',
  'reference',
]

/** Payment instructions one field per line, values unadorned so they can be copied as they are. */
export function renderInstructions(
  out: Output,
  instructions: PaymentInstruction[] | undefined,
  title = 'Funding instructions',
): void {
  if (!instructions?.length) return
  out.print()
  out.print(out.bold(title))
  for (const i of instructions) {
    const info = i.accountOrWalletInfo as Record<string, unknown>
    out.print(`  ${out.cyan(String(info.accountType))}`)
    const rows = INSTRUCTION_FIELDS.filter((k) => info[k] !== undefined).map((k): [string, string] => [
      `    ${k}`,
      String(info[k]),
    ])
    if (Array.isArray(info.paymentRails)) rows.push(['    paymentRails', info.paymentRails.join(', ')])
    renderKeyValue(out, rows)
    if (i.instructionsNotes) out.print(out.dim(`    ${i.instructionsNotes}`))
  }
}

export function renderInternalAccount(out: Output, a: InternalAccountView): void {
  const held = a.totalBalance.amount - a.balance.amount
  renderKeyValue(out, [
    ['id', a.id],
    ['customer', a.customerId ?? 'platform'],
    ['type', a.type],
    ['status', a.status],
    ['balance', formatCurrencyAmount(a.balance)],
    ['totalBalance', formatCurrencyAmount(a.totalBalance)],
    [
      'held',
      held > 0
        ? `${formatCurrencyAmount({amount: held, currency: a.balance.currency})} (executed, not settled)`
        : undefined,
    ],
    ['updated', a.updatedAt ? relativeTime(a.updatedAt) : undefined],
  ])
  renderInstructions(out, a.fundingPaymentInstructions)
}

export const internalAccountColumns: Array<Column<InternalAccountView>> = [
  {key: 'id', header: 'ID', get: (a) => a.id, noTruncate: true},
  {key: 'customer', header: 'CUSTOMER', get: (a) => a.customerId ?? 'platform', priority: 3, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (a) => a.type, priority: 4},
  {
    key: 'balance',
    header: 'BALANCE',
    get: (a) => formatCurrencyAmount(a.balance),
    raw: (a) => plainAmount(a.balance),
    currency: (a) => currencyOf(a.balance),
    priority: 1,
    noTruncate: true,
  },
  {
    key: 'total-balance',
    header: 'TOTAL BALANCE',
    get: (a) => formatCurrencyAmount(a.totalBalance),
    raw: (a) => plainAmount(a.totalBalance),
    currency: (a) => currencyOf(a.totalBalance),
    priority: 2,
    noTruncate: true,
  },
]

export async function renderInternalAccountList(
  out: Output,
  list: Page<InternalAccountView>,
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, internalAccountColumns, list, view)
}

export function identifierOf(a: ExternalAccountView): string {
  const i = a.accountInfo as Record<string, unknown>
  return String(
    i.clabeNumber ??
      i.iban ??
      i.pixKey ??
      i.address ??
      (i.routingNumber
        ? `${i.routingNumber} / ${i.accountNumber}`
        : i.sortCode
          ? `${i.sortCode} / ${i.accountNumber}`
          : '-'),
  )
}

function beneficiaryName(a: ExternalAccountView): string | undefined {
  const b = (a.accountInfo as {beneficiary?: {fullName?: string; legalName?: string}}).beneficiary
  return b?.fullName ?? b?.legalName
}

export function renderExternalAccount(out: Output, a: ExternalAccountView): void {
  const info = a.accountInfo as Record<string, unknown>
  renderKeyValue(out, [
    ['id', a.id],
    ['customer', a.customerId ?? 'platform'],
    ['status', a.status],
    ['type', info.accountType as string],
    ['currency', a.currency],
    ['identifier', identifierOf(a)],
    ['beneficiary', beneficiaryName(a)],
    ['nameCheck', a.beneficiaryVerificationStatus],
    ['ownership', a.ownershipType],
    ['paymentRails', Array.isArray(info.paymentRails) ? info.paymentRails.join(', ') : undefined],
    ['trusted', a.trusted ? 'yes' : undefined],
    ['platformAccountId', a.platformAccountId],
  ])
  if (a.status === 'PENDING_OWNERSHIP_VERIFICATION')
    out.info(
      out.dim(
        `Ownership not verified yet: \`svc accounts external verify-ownership ${a.id} --method WALLET_SIGNATURE|LIVENESS\`. Usable below the verification threshold.`,
      ),
    )
}

export const externalAccountColumns: Array<Column<ExternalAccountView>> = [
  {key: 'id', header: 'ID', get: (a) => a.id, noTruncate: true},
  {key: 'customer', header: 'CUSTOMER', get: (a) => a.customerId ?? 'platform', priority: 5, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (a) => a.accountInfo.accountType, priority: 4},
  {key: 'currency', header: 'CURRENCY', get: (a) => a.currency, priority: 2},
  {key: 'identifier', header: 'IDENTIFIER', get: identifierOf, priority: 3},
  {key: 'status', header: 'STATUS', get: (a) => a.status, priority: 1},
  {key: 'beneficiary', header: 'BENEFICIARY', get: beneficiaryName, priority: 6},
]

export async function renderExternalAccountList(
  out: Output,
  list: Page<ExternalAccountView>,
  view: ListView = {format: 'table', wide: false},
): Promise<void> {
  await renderList(out, externalAccountColumns, list, view)
}

export function renderChallenge(out: Output, c: OwnershipChallenge, accountId: string): void {
  if (c.method === 'WALLET_SIGNATURE') {
    out.info(out.bold('Sign this message exactly (every character, line breaks included) with the wallet, then run:'))
    out.info(`  svc accounts external submit-signature ${accountId} --signature <signature>`)
    out.info(out.dim(`Expires ${relativeTime(c.expiresAt)} (${c.expiresAt}). A new challenge abandons this one.`))
    // The message itself is the data: stdout, nothing added, so `> msg.txt` captures it byte for byte.
    if (out.json) return
    out.write(c.messageToSign ?? '')
    if (out.stdoutIsTTY) out.write('\n')
    return
  }
  renderKeyValue(out, [
    ['verificationLink', c.verificationLink],
    ['token', c.token],
    ['expires', `${relativeTime(c.expiresAt)} (${c.expiresAt})`],
  ])
  out.info(
    out.dim('Send the link to the customer. The outcome arrives asynchronously; a new challenge abandons this one.'),
  )
}
