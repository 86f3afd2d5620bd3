import {describe, expect, it} from 'vitest'
import {CborError, decodeCbor, decodeCborItem, encodeCbor} from '../../../src/emulator/domain/wallet/cbor.js'
import {bytesToHex} from '../../../src/lib/wallet/index.js'

const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'))

describe('CBOR', () => {
  it('decodes the RFC 8949 appendix A examples WebAuthn relies on', () => {
    expect(decodeCbor(bytes('00'))).toBe(0)
    expect(decodeCbor(bytes('17'))).toBe(23)
    expect(decodeCbor(bytes('1818'))).toBe(24)
    expect(decodeCbor(bytes('1903e8'))).toBe(1000)
    expect(decodeCbor(bytes('1a000f4240'))).toBe(1_000_000)
    expect(decodeCbor(bytes('20'))).toBe(-1)
    expect(decodeCbor(bytes('3863'))).toBe(-100)
    expect(decodeCbor(bytes('6449455446'))).toBe('IETF')
    expect(decodeCbor(bytes('4401020304'))).toEqual(bytes('01020304'))
    expect(decodeCbor(bytes('83010203'))).toEqual([1, 2, 3])
    expect(decodeCbor(bytes('a201020304'))).toEqual(
      new Map([
        [1, 2],
        [3, 4],
      ]),
    )
    expect(decodeCbor(bytes('f4'))).toBe(false)
    expect(decodeCbor(bytes('f5'))).toBe(true)
    expect(decodeCbor(bytes('f6'))).toBe(null)
  })

  it('round-trips a COSE key and an attestation object', () => {
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(32).fill(7)],
      [-3, new Uint8Array(32).fill(9)],
    ])
    const att = new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', encodeCbor(cose)],
    ])
    const decoded = decodeCbor(encodeCbor(att as never)) as Map<string, unknown>
    expect(decoded.get('fmt')).toBe('none')
    expect(decodeCbor(decoded.get('authData') as Uint8Array)).toEqual(cose)
    expect(bytesToHex(encodeCbor(-7))).toBe('26')
    expect(bytesToHex(encodeCbor(1000))).toBe('1903e8')
  })

  it('reports where an embedded item ends, and rejects truncation, trailing bytes and indefinite lengths', () => {
    expect(decodeCborItem(bytes('ff0102'), 1)).toEqual({value: 1, end: 2})
    expect(() => decodeCbor(bytes('44010203'))).toThrow(CborError)
    expect(() => decodeCbor(bytes('0101'))).toThrow(/trailing/)
    expect(() => decodeCbor(bytes('9f01ff'))).toThrow(/indefinite/)
    expect(() => decodeCbor(bytes('c0'))).toThrow(/major type 6/)
  })
})
