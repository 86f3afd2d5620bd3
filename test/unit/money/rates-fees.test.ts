import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {Emulator} from '../../../src/emulator/emulator.js'
import {feesFor} from '../../../src/emulator/domain/fees.js'
import {
  convertDown,
  convertUp,
  fromUsdCents,
  rateFor,
  rateNumber,
  rateTable,
  toUsdCents,
} from '../../../src/emulator/domain/rates.js'
import {rateLines} from '../../../src/lib/output/quote.js'

let emu: Emulator
let dir: string
let clock = 1_000_000
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-rates-'))
  emu = await Emulator.start({dataDir: dir, port: 0, now: () => clock})
})
afterAll(async () => {
  await emu.close()
  rmSync(dir, {recursive: true, force: true})
})

describe('exchange rates', () => {
  it('are exact ratios in smallest units (receiving per sending) with deterministic defaults', () => {
    expect(rateNumber(rateFor(emu, 'USD', 'MXN'))).toBe(17.25)
    expect(rateNumber(rateFor(emu, 'USD', 'USDC'))).toBe(10_000) // 1 cent = 0.01 USDC = 10,000 micro-USDC
    expect(rateNumber(rateFor(emu, 'USDC', 'USD'))).toBe(0.0001)
    expect(convertDown(rateFor(emu, 'USD', 'MXN'), 24_875)).toBe(429_093) // 248.75 * 17.25 = 4290.9375, rounded down
    expect(convertUp(rateFor(emu, 'USD', 'MXN'), 450_000)).toBe(26_087) // never delivers less than asked
    expect(
      convertDown(rateFor(emu, 'USD', 'MXN'), convertUp(rateFor(emu, 'USD', 'MXN'), 450_000)),
    ).toBeGreaterThanOrEqual(450_000)
    for (const c of ['EUR', 'BRL', 'GBP', 'USDT', 'BTC']) expect(rateNumber(rateFor(emu, 'USD', c))).toBeGreaterThan(0)
    expect(() => rateFor(emu, 'USD', 'XYZ')).toThrow(/No USD→XYZ rate/)
    expect(toUsdCents(emu, 'MXN', 1725)).toBe(100)
    expect(fromUsdCents(emu, 'EUR', 100)).toBe(92)
  })

  it('are configurable, and a snapshot is reused for rateCacheMs', () => {
    const first = rateTable(emu)
    clock += 60_000
    expect(rateTable(emu)).toBe(first) // same snapshot object within the cache window
    emu.saveConfig({...emu.config(), sandbox: {...emu.settings(), exchangeRates: {MXN: '18'}}})
    expect(rateNumber(rateFor(emu, 'USD', 'MXN'))).toBe(18)
    emu.saveConfig({...emu.config(), sandbox: {...emu.settings(), exchangeRates: {}}})
  })

  it('renders in real units both ways', () => {
    const [a, b] = rateLines({
      exchangeRate: 10_000,
      sendingCurrency: {code: 'USD', decimals: 2},
      receivingCurrency: {code: 'USDC', decimals: 6},
    })
    expect(a).toBe('1 USD = 1.00000 USDC')
    expect(b).toBe('1 USDC = 1.00000 USD')
  })
})

describe('fees', () => {
  it('price ACH and ACH_SAME_DAY separately; cross-currency adds basis points', () => {
    expect(feesFor(emu, {from: 'USD', to: 'USD', rail: 'ACH', net: 10_000})).toEqual({service: 25, platform: 0})
    expect(feesFor(emu, {from: 'USD', to: 'USD', rail: 'ACH_SAME_DAY', net: 10_000})).toEqual({
      service: 150,
      platform: 0,
    })
    expect(feesFor(emu, {from: 'USD', to: 'MXN', rail: 'SPEI', net: 10_000})).toEqual({service: 50 + 30, platform: 0})
    expect(feesFor(emu, {from: 'EUR', to: 'MXN', rail: 'SPEI', net: 10_000}).service).toBe(Math.ceil(50 * 0.92) + 30)
  })

  it('platform fees apply to USD sources only (standing config or per-quote override)', () => {
    emu.saveConfig({
      ...emu.config(),
      feeConfigs: [
        {
          feeType: 'CROSS_CURRENCY_TRANSACTION',
          sourceCurrency: 'USD',
          variableFeeBps: 100,
          fixedFee: {amount: 10, currency: 'USD'},
        },
      ],
    })
    expect(feesFor(emu, {from: 'USD', to: 'MXN', net: 10_000}).platform).toBe(110)
    expect(feesFor(emu, {from: 'USD', to: 'USD', net: 10_000}).platform).toBe(0) // standing fees are for cross-currency
    expect(feesFor(emu, {from: 'EUR', to: 'MXN', net: 10_000}).platform).toBe(0)
    expect(feesFor(emu, {from: 'USD', to: 'MXN', net: 10_000, override: {fixed: 200, bps: 0}}).platform).toBe(200)
    emu.saveConfig({...emu.config(), feeConfigs: []})
  })
})
