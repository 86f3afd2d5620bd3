import type {ExternalAccountView, InternalAccountView, OwnershipChallenge, PaymentInstruction} from '../schemas/accounts.js'
import {formatCurrencyAmount, relativeTime} from './format.js'
import type {Output} from './output.js'
import {renderKeyValue, renderTable} from './render.js'

type Page<T> = {data: T[]; hasMore: boolean; totalCount?: number; nextCursor?: string}

const INSTRUCTION_FIELDS = ['accountNumber', 'routingNumber', 'bankName', 'bankAccountType', 'clabeNumber', 'iban', 'swiftCode', 'sortCode', 'address', 'assetType', 'network', 'invoice', 'qrCode', 'reference']

/** Payment instructions one field per line, values unadorned so they can be copied as they are. */
export function renderInstructions(out: Output, instructions: PaymentInstruction[] | undefined, title = 'Funding instructions'): void {
  if (!instructions?.length) return
  out.print()
  out.print(out.bold(title))
  for (const i of instructions) {
    const info = i.accountOrWalletInfo as Record<string, unknown>
    out.print(`  ${out.cyan(String(info.accountType))}`)
    const rows = INSTRUCTION_FIELDS.filter((k) => info[k] !== undefined).map((k): [string, string] => [`    ${k}`, String(info[k])])
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
    ['held', held > 0 ? `${formatCurrencyAmount({amount: held, currency: a.balance.currency})} (executed, not settled)` : undefined],
    ['updated', a.updatedAt ? relativeTime(a.updatedAt) : undefined],
  ])
  renderInstructions(out, a.fundingPaymentInstructions)
}

export async function renderInternalAccountList(out: Output, list: Page<InternalAccountView>): Promise<void> {
  await renderTable(out, ['ID', 'CUSTOMER', 'TYPE', 'BALANCE', 'TOTAL BALANCE'], list.data.map((a) => [a.id, a.customerId ?? 'platform', a.type, formatCurrencyAmount(a.balance), formatCurrencyAmount(a.totalBalance)]))
  if (list.hasMore) out.info(out.dim(`More results: --cursor ${list.nextCursor} (or --all).`))
}

export function identifierOf(a: ExternalAccountView): string {
  const i = a.accountInfo as Record<string, unknown>
  return String(i.clabeNumber ?? i.iban ?? i.pixKey ?? i.address ?? (i.routingNumber ? `${i.routingNumber} / ${i.accountNumber}` : i.sortCode ? `${i.sortCode} / ${i.accountNumber}` : '-'))
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
  if (a.status === 'PENDING_OWNERSHIP_VERIFICATION') out.info(out.dim(`Ownership not verified yet: \`svc accounts external verify-ownership ${a.id} --method WALLET_SIGNATURE|LIVENESS\`. Usable below the verification threshold.`))
}

export async function renderExternalAccountList(out: Output, list: Page<ExternalAccountView>): Promise<void> {
  await renderTable(out, ['ID', 'CUSTOMER', 'TYPE', 'CURRENCY', 'IDENTIFIER', 'STATUS'], list.data.map((a) => [a.id, a.customerId ?? 'platform', a.accountInfo.accountType, a.currency, identifierOf(a), a.status]))
  if (list.hasMore) out.info(out.dim(`More results: --cursor ${list.nextCursor} (or --all).`))
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
  out.info(out.dim('Send the link to the customer. The outcome arrives asynchronously; a new challenge abandons this one.'))
}
