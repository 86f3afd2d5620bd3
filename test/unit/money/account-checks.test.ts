import {ed25519} from '@noble/curves/ed25519.js'
import {base58} from '@scure/base'
import {describe, expect, it} from 'vitest'
import {
  clabeCheckDigit,
  clabeProblem,
  ibanProblem,
  pixKeyProblem,
  routingChecksumProblem,
  routingProblem,
  walletAddressProblem,
} from '../../../src/lib/account-checks.js'
import {externalAccountProblems} from '../../../src/lib/schemas/accounts.js'

describe('account format checks', () => {
  it('CLABE: 18 digits with the 3-7-1 check digit', () => {
    expect(clabeProblem('032180000118359719')).toBeUndefined() // published Banxico example
    expect(clabeCheckDigit('03218000011835971')).toBe(9)
    expect(clabeProblem('032180000118359718')).toMatch(/check digit/)
    expect(clabeProblem('03218000011835971')).toMatch(/18 digits/)
    expect(clabeProblem('03218000011835971a')).toMatch(/18 digits/)
  })

  it('ABA routing numbers: 9 digits refused otherwise; the checksum is a separate (warning) check', () => {
    for (const ok of ['021000021', '011000015', '121000358', '123456789']) expect(routingProblem(ok)).toBeUndefined()
    for (const ok of ['021000021', '011000015', '121000358']) expect(routingChecksumProblem(ok)).toBeUndefined()
    expect(routingChecksumProblem('021000022')).toMatch(/checksum/)
    expect(routingChecksumProblem('123456789')).toMatch(/checksum/) // the contract's own example
    expect(routingChecksumProblem('02100002')).toBeUndefined() // the format check speaks for it
    expect(routingProblem('02100002')).toMatch(/9 digits/)
  })

  it('IBAN: mod-97 and length per country', () => {
    for (const ok of [
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
    ])
      expect(ibanProblem(ok)).toBeUndefined()
    expect(ibanProblem('DE89 3704 0044 0532 0130 00')).toBeUndefined()
    expect(ibanProblem('DE89370400440532013001')).toMatch(/mod-97/)
    expect(ibanProblem('GB82WEST1234569876543')).toMatch(/22 characters/)
    expect(ibanProblem('12345')).toMatch(/look like an IBAN/)
  })

  it('PIX keys by type', () => {
    expect(pixKeyProblem('52998224725', 'CPF')).toBeUndefined()
    expect(pixKeyProblem('52998224724', 'CPF')).toMatch(/CPF/)
    expect(pixKeyProblem('11111111111', 'CPF')).toMatch(/CPF/)
    expect(pixKeyProblem('11222333000181', 'CNPJ')).toBeUndefined()
    expect(pixKeyProblem('11222333000180', 'CNPJ')).toMatch(/CNPJ/)
    expect(pixKeyProblem('maria.002@example.com', 'EMAIL')).toBeUndefined()
    expect(pixKeyProblem('maria', 'EMAIL')).toMatch(/e-mail/)
    expect(pixKeyProblem('+5511987654321', 'PHONE')).toBeUndefined()
    expect(pixKeyProblem('+15551234567', 'PHONE')).toMatch(/\+55/)
    expect(pixKeyProblem('123e4567-e89b-12d3-a456-426614174000', 'RANDOM')).toBeUndefined()
  })

  it('wallet addresses per chain', () => {
    expect(walletAddressProblem('ETHEREUM_WALLET', '0x52908400098527886E0F7030069857D2E4169EE7')).toBeUndefined()
    expect(walletAddressProblem('BASE_WALLET', '0x5290840009852788')).toMatch(/40 hex/)
    expect(
      walletAddressProblem('SOLANA_WALLET', base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))),
    ).toBeUndefined()
    expect(walletAddressProblem('SOLANA_WALLET', base58.encode(new Uint8Array(31).fill(7)))).toMatch(/32 bytes/)
    expect(walletAddressProblem('TRON_WALLET', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeUndefined()
    expect(walletAddressProblem('TRON_WALLET', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toMatch(/base58check/)
    expect(walletAddressProblem('PLASMA_WALLET', '0x' + 'a'.repeat(40))).toBeUndefined()
    expect(walletAddressProblem('L2_WALLET', 'bc1qxyz')).toMatch(/layer-2/)
  })

  it('the shared validator lists shape and format problems together', () => {
    const r = externalAccountProblems({
      currency: 'USD',
      accountInfo: {accountType: 'CLABE', clabeNumber: '032180000118359718'},
    })
    expect(r.data).toBeUndefined()
    expect(r.errors.map((e) => e.field).sort()).toEqual([
      'accountInfo.beneficiary',
      'accountInfo.clabeNumber',
      'currency',
    ])
    const ok = externalAccountProblems({
      currency: 'MXN',
      accountInfo: {
        accountType: 'CLABE',
        clabeNumber: '032180000118359719',
        beneficiary: {beneficiaryType: 'BUSINESS', legalName: 'Acme SA'},
      },
    })
    expect(ok.errors).toEqual([])
    expect(ok.data?.accountInfo.accountType).toBe('CLABE')
  })
})
