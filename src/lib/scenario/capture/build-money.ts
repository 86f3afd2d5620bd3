import {WALLET_KINDS} from '../../account-checks.js'
import {externalAccountProblems, primaryIdentifier} from '../../schemas/accounts.js'
import type {Fakes} from './fakes.js'
import type {Doc, Situation} from './read.js'
import type {StepList} from './steps.js'

/**
 * Money: internal accounts found by currency and funded with the exact minor-unit amount that leaves
 * the observed balances once the payouts are replayed; external accounts by kind, their identifiers
 * faked with the last 3 digits that make the sandbox repeat the observed outcome; recent payouts
 * quoted and executed again; embedded wallets logged into when they had sessions.
 */

/** Observed payout outcome -> the identifier suffix that reproduces it (sandbox-behaviour 9, 10; payout-patterns.ts). */
function payoutSuffix(t: Doc, wallet: boolean): string | undefined {
  const reason = t.failureReason as string | undefined
  const refund = (t.refund as Doc | undefined)?.status
  if (t.status === 'COMPLETED') return ''
  if (t.status === 'PROCESSING' || t.status === 'PENDING') return wallet ? undefined : '003'
  if (t.status !== 'FAILED') return undefined
  if (reason === 'QUOTE_EXECUTION_FAILED') return refund === 'COMPLETED' ? '006' : refund ? undefined : '002'
  if (reason === 'ACCOUNT_CANNOT_RECEIVE') return refund === 'FAILED' ? '007' : refund ? undefined : '004'
  if (reason === 'PAYOUT_RETURNED' && !wallet) return '005'
  return undefined
}

/** Beneficiary name-check status -> its 1xx suffix (sandbox-behaviour 7); MATCHED needs none. */
const BENEFICIARY_SUFFIX: Record<string, string> = {
  MATCHED: '',
  NOT_MATCHED: '102',
  PARTIAL_MATCH: '103',
  PENDING: '104',
  UNSUPPORTED: '106',
  CHECKED_BY_RECEIVING_FI: '107',
}
const NEUTRAL = '000'

const IDENTIFIER_FIELDS = ['clabeNumber', 'iban', 'pixKey', 'address', 'accountNumber'] as const
const KEEP_PREFIX: Record<string, number> = {clabeNumber: 6, iban: 8}

export function moneySteps(s: Situation, fakes: Fakes, out: StepList): void {
  const acct = new Map(s.internalAccounts.map((a, i) => [String(a.id), `acct${i + 1}`]))
  const ext = new Map(s.externalAccounts.map((a, i) => [String(a.id), `ext${i + 1}`]))
  // Oldest first: the order they happened in.
  const payouts = [...s.transactions].reverse().filter((t) => {
    if (t.type !== 'OUTGOING') return false
    const ok = acct.has(t.source?.accountId) && ext.has(t.destination?.accountId)
    if (!ok)
      out.cannot(`${t.id} (${t.status}): only payouts from an internal account to an external account are replayed`)
    return ok
  })
  for (const t of s.transactions.filter((x) => x.type !== 'OUTGOING' && x.type !== 'INCOMING'))
    out.cannot(`${t.id} (${t.type} ${t.status}): no sandbox control replays it`)

  // One suffix per external account: from its latest payout, else from its beneficiary check.
  const suffixOf = new Map<string, string | undefined>()
  const replayed: Doc[] = []
  for (const t of [...payouts].reverse()) {
    const a = s.externalAccounts.find((x) => x.id === t.destination.accountId)!
    const wanted = payoutSuffix(t, Boolean(WALLET_KINDS[String(a.accountInfo?.accountType)]))
    if (!suffixOf.has(a.id)) suffixOf.set(a.id, wanted)
    if (wanted === undefined)
      out.cannot(
        `${t.id}: ${t.status}${t.failureReason ? ` ${t.failureReason}` : ''}${t.refund ? ` (refund ${t.refund.status})` : ''} has no sandbox control`,
      )
    else if (suffixOf.get(a.id) !== wanted)
      out.cannot(`${t.id} (${t.status}): ${a.id}'s later payout fixed a different outcome for that account`)
    else replayed.unshift(t)
  }

  s.internalAccounts.forEach((a, i) => locateAccount(s, a, i, out))
  for (const a of s.internalAccounts) {
    const gone = replayed
      .filter((t) => t.source.accountId === a.id && (t.status === 'COMPLETED' || t.refund?.status === 'FAILED'))
      .reduce((sum, t) => sum + Number(t.sentAmount?.amount ?? 0), 0)
    const amount = Number(a.totalBalance?.amount ?? a.balance?.amount ?? 0) + gone
    if (amount > 0) {
      out.add({
        name: `fund ${acct.get(a.id)} with ${amount} minor units of ${currencyOf(a)}${gone ? ` (the balance plus ${gone} the replayed payouts take)` : ''}`,
        api: {method: 'POST', path: `/sandbox/internal-accounts/\${${acct.get(a.id)}}/fund`, body: {amount}},
        expect: {equals: {'totalBalance.amount': amount}},
      })
    }
  }
  s.externalAccounts.forEach((a) => externalAccountStep(a, ext.get(a.id)!, suffixOf.get(a.id), fakes, out))
  replayed.forEach((t, i) =>
    payoutSteps(
      t,
      s.quotes[t.quoteId]?.status,
      i + 1,
      acct.get(t.source.accountId)!,
      ext.get(t.destination.accountId)!,
      out,
    ),
  )
  walletSteps(s, acct, out)
  for (const a of s.internalAccounts) {
    out.add({
      name: `${acct.get(a.id)} (${a.type} ${currencyOf(a)}) ends with the observed balance`,
      svc: ['accounts', 'internal', 'get', `\${${acct.get(a.id)}}`],
      expect: {equals: {'balance.amount': a.balance?.amount ?? 0, 'totalBalance.amount': a.totalBalance?.amount ?? 0}},
    })
  }
}

const currencyOf = (a: Doc) => String(a.balance?.currency?.code ?? a.currency ?? '')

/** The rebuilt customer's account of the same currency and type (the sandbox opens them with the customer). */
function locateAccount(s: Situation, a: Doc, i: number, out: StepList): void {
  const currency = currencyOf(a)
  const k = s.internalAccounts.filter((x) => currencyOf(x) === currency).indexOf(a)
  out.add({
    name: `find the ${a.type} ${currency} account (acct${i + 1})`,
    api: {method: 'GET', path: '/customers/internal-accounts', query: {customerId: '${customer}', currency}},
    capture: {[`acct${i + 1}`]: `data[${k}].id`},
    expect: {equals: {[`data[${k}].type`]: a.type, [`data[${k}].status`]: a.status}},
  })
}

function externalAccountStep(a: Doc, name: string, payout: string | undefined, fakes: Fakes, out: StepList): void {
  const info = {...(a.accountInfo as Doc)}
  delete info.paymentRails
  // Free text for the receiving bank may name people: left out.
  delete info.fiToFiInformation
  const beneficiaryStatus = String(a.beneficiaryVerificationStatus ?? 'MATCHED')
  let suffix = payout ?? ''
  const nameCheck = BENEFICIARY_SUFFIX[beneficiaryStatus]
  if (nameCheck === undefined) out.cannot(`${name}: beneficiary check ${beneficiaryStatus} has no sandbox control`)
  else if (nameCheck && !suffix) suffix = nameCheck
  else if (nameCheck)
    out.cannot(
      `${name}: beneficiary check ${beneficiaryStatus} (its suffix ${nameCheck} clashes with the payout outcome's ${suffix})`,
    )
  const field = IDENTIFIER_FIELDS.find((f) => typeof info[f] === 'string')
  const original = field ? String(info[field]) : primaryIdentifier(info)
  // No outcome to drive: a neutral 000 (the original's digits are not kept).
  if (!suffix) suffix = NEUTRAL
  if (info.beneficiary) info.beneficiary = fakeBeneficiary(info.beneficiary as Doc, fakes)
  const body: Record<string, unknown> = {
    customerId: '${customer}',
    currency: a.currency ?? (a.accountInfo as Doc)?.currency,
    accountInfo: info,
  }
  if (a.ownershipType) body.ownershipType = a.ownershipType
  if (!body.currency) delete body.currency
  if (field) {
    const valid = (v: string) => {
      const p = externalAccountProblems({...body, accountInfo: {...info, [field]: v}})
      return ![...p.errors, ...p.warnings].some((e) => e.field.startsWith(`accountInfo.${field}`))
    }
    const faked = original.includes('@')
      ? fakeEmailKey(original, suffix, fakes, valid)
      : fakes.accountIdentifier(original, suffix, KEEP_PREFIX[field] ?? 0, valid)
    if (!faked) {
      out.cannot(
        `${name} (${info.accountType}): no valid stand-in identifier ending in ${suffix} was found; the account is not rebuilt`,
      )
      return
    }
    info[field] = faked
  }
  const outcome = payout === undefined ? '' : payout ? `, suffix ${suffix}: ${describeSuffix(suffix)}` : ''
  out.add({
    name: `add the ${info.accountType} beneficiary ${name}${outcome}`,
    api: {method: 'POST', path: '/customers/external-accounts', body},
    capture: {[name]: 'id'},
    expect: {
      equals: {
        status: a.status === 'ACTIVE' ? 'ACTIVE' : a.status,
        beneficiaryVerificationStatus: a.beneficiaryVerificationStatus,
      },
    },
  })
}

function fakeEmailKey(
  original: string,
  suffix: string,
  fakes: Fakes,
  valid: (v: string) => boolean,
): string | undefined {
  const local = original.slice(0, original.indexOf('@'))
  const faked = fakes.accountIdentifier(local, suffix, 0, (v) => valid(`${v}@example.com`))
  return faked ? `${faked}@example.com` : undefined
}

function describeSuffix(suffix: string): string {
  return (
    (
      {
        '002': 'execution fails',
        '003': 'slow payment',
        '004': 'delivery fails',
        '005': 'returned after completing',
        '006': 'user cancellation, refunded',
        '007': 'fails and so does the refund',
        '102': 'name not matched',
        '103': 'partial name match',
        '104': 'name check pending',
        '106': 'name check unsupported',
        '107': 'checked by the receiving bank',
      } as Record<string, string>
    )[suffix] ?? 'success'
  )
}

function fakeBeneficiary(b: Doc, fakes: Fakes): Doc {
  const out: Doc = {...b}
  if (out.fullName) out.fullName = fakes.beneficiaryName(String(out.fullName))
  if (out.legalName) out.legalName = fakes.businessName(String(out.legalName))
  if (out.birthDate) out.birthDate = fakes.birthDate(String(out.birthDate))
  if (out.email) out.email = fakes.email(String(out.email))
  if (out.phoneNumber) out.phoneNumber = fakes.phone(String(out.phoneNumber))
  if (out.address) out.address = fakes.address(out.address as Doc)
  if (out.taxId) out.taxId = fakes.documentNumber(String(out.taxId))
  if (out.registrationNumber) out.registrationNumber = fakes.documentNumber(String(out.registrationNumber))
  return out
}

function payoutSteps(
  t: Doc,
  quoteStatus: string | undefined,
  n: number,
  from: string,
  to: string,
  out: StepList,
): void {
  const q = `q${n}`
  out.add({
    name: `quote payout ${n}: ${t.sentAmount?.amount} minor units of ${t.sentAmount?.currency?.code} from ${from} to ${to}`,
    svc: [
      'quote',
      'create',
      '--from',
      `\${${from}}`,
      '--to',
      `\${${to}}`,
      '--amount-minor',
      String(t.sentAmount?.amount),
      '--lock',
      'sending',
      ...(t.paymentRail ? ['--rail', String(t.paymentRail)] : []),
      '--idempotency-key',
      `capture-${q}-\${run.id}`,
    ],
    capture: {[q]: '$'},
    expect: {equals: {totalSendingAmount: t.sentAmount?.amount}},
  })
  out.add({
    name: `execute payout ${n}`,
    svc: ['quote', 'execute', `\${${q}.id}`, '--yes', '--idempotency-key', `capture-x${n}-\${run.id}`],
  })
  if (t.status === 'COMPLETED' || t.status === 'FAILED') {
    out.add({
      name: `payout ${n} ends ${t.status}`,
      webhook: {type: `OUTGOING_PAYMENT.${t.status}`, where: {'data.id': `\${${q}.transactionId}`}},
      timeout: '2m',
    })
  }
  const equals: Record<string, unknown> = {status: t.status}
  if (t.failureReason) equals.failureReason = t.failureReason
  if (t.refund?.status) equals['refund.status'] = t.refund.status
  out.add({
    name: `payout ${n} reads ${t.status}${t.failureReason ? ` (${t.failureReason})` : ''}`,
    svc: ['transactions', 'get', `\${${q}.transactionId}`],
    expect: {equals},
  })
  if (quoteStatus)
    out.add({
      name: `its quote reads ${quoteStatus}`,
      api: {method: 'GET', path: `/quotes/\${${q}.id}`},
      expect: {equals: {status: quoteStatus}},
    })
}

/** An embedded wallet exists with its customer; sessions are rebuilt by logging in with the sandbox OTP. */
function walletSteps(s: Situation, acct: Map<string, string>, out: StepList): void {
  for (const [id, w] of Object.entries(s.wallets)) {
    const name = acct.get(id)!
    const others = w.credentials.filter((c) => c.type !== 'EMAIL_OTP')
    for (const c of others)
      out.cannot(`${name}: the ${c.type} credential (only the e-mail OTP credential comes with the wallet)`)
    if (!w.sessions.length) continue
    out.add({
      name: `log in to the embedded wallet ${name} (sandbox OTP 000000)`,
      svc: ['wallet', 'login', `\${${name}}`, '--type', 'EMAIL_OTP', '--otp-stdin'],
      input: '000000',
      expect: {matches: {'session.id': '.+'}},
    })
    if (w.sessions.length > 1) out.cannot(`${name}: ${w.sessions.length} sessions (one login is replayed)`)
  }
}
