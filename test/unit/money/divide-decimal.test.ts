import {expect, it} from 'vitest'
import {divideDecimal} from '../../../src/emulator/domain/exchange-rates.js'
it('divides decimal strings exactly to 8 significant digits, rounding half up', () => {
  expect(divideDecimal('1', '0.92')).toBe('1.0869565')
  expect(divideDecimal('1', '151')).toBe('0.0066225166')
  expect(divideDecimal('17.25', '1')).toBe('17.25')
  expect(divideDecimal('1', '0.0000154')).toBe('64935.065')
  expect(divideDecimal('151', '0.0000154')).toBe('9805194.8')
  expect(divideDecimal('1', '1')).toBe('1')
})
