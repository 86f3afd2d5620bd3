import {base58} from '@scure/base'

/**
 * Local format checks for bank and wallet identifiers, shared by the client (refuse before any
 * request) and the local sandbox (refuse at creation). Each returns a message, or undefined when fine.
 */

/** CLABE: 18 digits; the last one is a check digit over the first 17 with weights 3, 7, 1. */
export function clabeProblem(v: string): string | undefined {
  if (!/^\d{18}$/.test(v)) return 'must be exactly 18 digits'
  if (clabeCheckDigit(v.slice(0, 17)) !== Number(v[17])) return 'has a wrong check digit (last digit)'
  return undefined
}

export function clabeCheckDigit(first17: string): number {
  const weights = [3, 7, 1]
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * weights[i % 3]) % 10
  return (10 - (sum % 10)) % 10
}

/** ABA routing number: 9 digits (api-gaps 3.3). The spec asks for no checksum: see routingChecksumProblem. */
export function routingProblem(v: string): string | undefined {
  return /^\d{9}$/.test(v) ? undefined : 'must be exactly 9 digits'
}

/**
 * The ABA 3-7-1 checksum of a 9-digit routing number. Not a refusal (the spec and the contract ask
 * only for 9 digits, and the contract's own example 123456789 fails it): the CLI warns.
 */
export function routingChecksumProblem(v: string): string | undefined {
  if (!/^\d{9}$/.test(v)) return undefined
  const d = [...v].map(Number)
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])
  return sum % 10 === 0 ? undefined : 'fails the ABA routing-number checksum (3-7-1); check it for a typo'
}

const IBAN_LENGTHS: Record<string, number> = {
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IT: 27,
  LT: 20,
  LU: 20,
  LV: 21,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
}

/** IBAN: country code, two check digits, the BBAN; ISO 7064 mod-97 must give 1. */
export function ibanProblem(raw: string): string | undefined {
  const v = raw.replace(/ /g, '')
  if (!/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/.test(v))
    return 'must look like an IBAN: 2 letters, 2 check digits, 11-30 letters or digits'
  const expected = IBAN_LENGTHS[v.slice(0, 2)]
  if (expected && v.length !== expected)
    return `must have ${expected} characters for ${v.slice(0, 2)} (has ${v.length})`
  const rearranged = (v.slice(4) + v.slice(0, 4)).toUpperCase()
  let rem = 0
  for (const ch of rearranged) {
    const n = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch
    for (const digit of n) rem = (rem * 10 + Number(digit)) % 97
  }
  return rem === 1 ? undefined : 'fails the IBAN mod-97 check (a typo in the number?)'
}

function cpfValid(v: string): boolean {
  if (!/^\d{11}$/.test(v) || /^(\d)\1{10}$/.test(v)) return false
  const d = [...v].map(Number)
  for (const n of [9, 10]) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += d[i] * (n + 1 - i)
    if (((sum * 10) % 11) % 10 !== d[n]) return false
  }
  return true
}

function cnpjValid(v: string): boolean {
  if (!/^\d{14}$/.test(v) || /^(\d)\1{13}$/.test(v)) return false
  const d = [...v].map(Number)
  for (const n of [12, 13]) {
    const weights = n === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    const sum = weights.reduce((s, w, i) => s + w * d[i], 0)
    const check = sum % 11 < 2 ? 0 : 11 - (sum % 11)
    if (check !== d[n]) return false
  }
  return true
}

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const

/** PIX key, checked by its declared type (CPF/CNPJ check digits, e-mail, +55 phone, random EVP UUID). */
export function pixKeyProblem(key: string, type: string): string | undefined {
  switch (type) {
    case 'CPF':
      return cpfValid(key) ? undefined : 'must be a CPF: 11 digits with valid check digits'
    case 'CNPJ':
      return cnpjValid(key) ? undefined : 'must be a CNPJ: 14 digits with valid check digits'
    case 'EMAIL':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key) && key.length <= 77 ? undefined : 'must be an e-mail address'
    case 'PHONE':
      return /^\+55\d{10,11}$/.test(key) ? undefined : 'must be a Brazilian phone number: +55 then 10 or 11 digits'
    case 'RANDOM':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)
        ? undefined
        : 'must be a random key (EVP): a UUID'
    default:
      return undefined
  }
}

/** Which chain family an address kind belongs to (decides format and signature verification). */
export const WALLET_KINDS: Record<
  string,
  {chain: 'EVM' | 'SOLANA' | 'TRON' | 'L2'; network: string; assets: string[]}
> = {
  ETHEREUM_WALLET: {chain: 'EVM', network: 'ETHEREUM', assets: ['USDC', 'USDT']},
  BASE_WALLET: {chain: 'EVM', network: 'BASE', assets: ['USDC']},
  POLYGON_WALLET: {chain: 'EVM', network: 'POLYGON', assets: ['USDC']},
  PLASMA_WALLET: {chain: 'EVM', network: 'PLASMA', assets: ['USDT']},
  SOLANA_WALLET: {chain: 'SOLANA', network: 'SOLANA', assets: ['USDC', 'USDT']},
  TRON_WALLET: {chain: 'TRON', network: 'TRON', assets: ['USDT']},
  L2_WALLET: {chain: 'L2', network: 'L2', assets: ['BTC', 'USDB']},
}

/** Wallet address format per chain: EVM 0x+40 hex, Solana base58 of 32 bytes, Tron base58check T..., L2 bech32-style. */
export function walletAddressProblem(kind: string, address: string): string | undefined {
  const chain = WALLET_KINDS[kind]?.chain
  switch (chain) {
    case 'EVM':
      return /^0x[0-9a-fA-F]{40}$/.test(address) ? undefined : 'must be an EVM address: 0x followed by 40 hex digits'
    case 'SOLANA': {
      try {
        if (base58.decode(address).length === 32) return undefined
      } catch {
        // falls through to the message
      }
      return 'must be a Solana address: base58 encoding of 32 bytes'
    }
    case 'TRON': {
      try {
        const bytes = base58.decode(address)
        const body = bytes.slice(0, 21)
        // node:crypto on use: every command that checks an account would otherwise load it.
        const {createHash} = process.getBuiltinModule('node:crypto')
        const sum = createHash('sha256').update(createHash('sha256').update(body).digest()).digest().subarray(0, 4)
        if (bytes.length === 25 && bytes[0] === 0x41 && Buffer.from(bytes.slice(21)).equals(sum)) return undefined
      } catch {
        // falls through to the message
      }
      return 'must be a Tron address: base58check starting with T (0x41 prefix)'
    }
    case 'L2':
      return /^(spark|sparkrt|sparkt|sp|sprt)1[02-9ac-hj-np-z]{20,120}$/.test(address)
        ? undefined
        : 'must be a layer-2 address: spark1... / sparkrt1... (bech32m characters)'
    default:
      return undefined
  }
}

/** EVM addresses compare case-insensitively; others exactly. */
export function sameAddress(kind: string, a: string, b: string): boolean {
  return WALLET_KINDS[kind]?.chain === 'EVM' ? a.toLowerCase() === b.toLowerCase() : a === b
}
