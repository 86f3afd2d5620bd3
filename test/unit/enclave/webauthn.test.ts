import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {decodeCbor, encodeCbor} from '../../../src/emulator/domain/wallet/cbor.js'
import {parseAuthenticatorData} from '../../../src/emulator/domain/wallet/passkey.js'
import {base64urlDecode, bytesToHex} from '../../../src/lib/wallet/index.js'
import {SoftAuthenticator} from '../../helpers/authenticator.js'

const authDataOf = (attestationObject: string) =>
  (decodeCbor(base64urlDecode(attestationObject)) as Map<string, unknown>).get('authData') as Uint8Array

describe('authenticator data', () => {
  it('reads the RP id hash, flags, counter, credential id and the COSE P-256 key of a registration', () => {
    const a = new SoftAuthenticator()
    const parsed = parseAuthenticatorData(authDataOf(a.register('Y2g').attestationObject))
    expect(bytesToHex(parsed.rpIdHash)).toBe(createHash('sha256').update('localhost').digest('hex'))
    expect(parsed.flags & 0x41).toBe(0x41)
    expect(parsed.signCount).toBe(0)
    expect(parsed.credentialId).toEqual(a.rawId)
    expect(parsed.publicKey).toBe(bytesToHex(a.key.publicKeyUncompressed))
  })

  it('reads a big-endian sign counter from an assertion', () => {
    const a = new SoftAuthenticator()
    const parsed = parseAuthenticatorData(base64urlDecode(a.assert('ab', {counter: 0x01020304}).authenticatorData))
    expect(parsed.signCount).toBe(0x01020304)
    expect(parsed.credentialId).toBeUndefined()
  })

  it('rejects truncated data and keys that are not ES256 P-256', () => {
    expect(() => parseAuthenticatorData(new Uint8Array(36))).toThrow(/at least 37/)
    const a = new SoftAuthenticator()
    const good = authDataOf(a.register('Y2g').attestationObject)
    expect(() => parseAuthenticatorData(good.slice(0, 60))).toThrow(/truncated/)
    const head = good.slice(0, 55 + a.rawId.length)
    const rsaish = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 3],
        [3, -257],
      ]),
    )
    expect(() => parseAuthenticatorData(new Uint8Array([...head, ...rsaish]))).toThrow(/ES256 P-256/)
    const offCurve = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(32).fill(1)],
        [-3, new Uint8Array(32).fill(2)],
      ]),
    )
    expect(() => parseAuthenticatorData(new Uint8Array([...head, ...offCurve]))).toThrow()
  })
})
