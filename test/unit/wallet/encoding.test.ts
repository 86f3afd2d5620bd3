import {describe, expect, it} from 'vitest'

import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  compressPublicKey,
  decompressPublicKey,
  hexToBytes,
  publicKeyFromPrivate,
  utf8Decode,
  utf8Encode,
  WalletCryptoError,
} from '../../../src/lib/wallet/index.js'
import {caught, vectors} from './vectors.js'

describe('hex', () => {
  it('round-trips and writes lowercase', () => {
    expect(bytesToHex(hexToBytes('00ff7A'))).toBe('00ff7a')
    expect(Array.from(hexToBytes('0a10'))).toEqual([10, 16])
    expect(hexToBytes('').length).toBe(0)
  })

  it.each(['0x00', 'abc', 'zz', '00 11'])('rejects %j with INVALID_HEX', async (bad) => {
    const error = await caught(() => hexToBytes(bad, 'test value'))
    expect(error).toBeInstanceOf(WalletCryptoError)
    expect((error as WalletCryptoError).code).toBe('INVALID_HEX')
    expect((error as WalletCryptoError).message).toMatch(/^test value is not valid hex/)
  })
})

describe('utf8 and base64url', () => {
  it('encodes multibyte text and rejects invalid UTF-8', async () => {
    expect(bytesToHex(utf8Encode('é€'))).toBe('c3a9e282ac')
    expect(utf8Decode(hexToBytes('c3a9e282ac'))).toBe('é€')
    expect(((await caught(() => utf8Decode(hexToBytes('c3')))) as WalletCryptoError).code).toBe('INVALID_INPUT')
  })

  it('uses the URL alphabet without padding and tolerates padding on input', () => {
    expect(base64urlEncode(hexToBytes('fbff'))).toBe('-_8')
    expect(base64urlEncode(utf8Encode('a'))).toBe('YQ')
    expect(utf8Decode(base64urlDecode('YQ'))).toBe('a')
    expect(utf8Decode(base64urlDecode('YQ=='))).toBe('a')
  })

  it('rejects the standard alphabet', async () => {
    expect(((await caught(() => base64urlDecode('+/8'))) as WalletCryptoError).code).toBe('INVALID_INPUT')
  })
})

describe('P-256 public keys', () => {
  const keys = Object.entries(vectors.keys)

  it.each(keys)('%s: derives, compresses and decompresses to the vector forms', (_name, key) => {
    expect(bytesToHex(publicKeyFromPrivate(key.privateKey, true))).toBe(key.publicKeyCompressed)
    expect(bytesToHex(publicKeyFromPrivate(key.privateKey, false))).toBe(key.publicKeyUncompressed)
    expect(bytesToHex(compressPublicKey(key.publicKeyUncompressed))).toBe(key.publicKeyCompressed)
    expect(bytesToHex(decompressPublicKey(key.publicKeyCompressed))).toBe(key.publicKeyUncompressed)
    expect(bytesToHex(decompressPublicKey(key.publicKeyCompressed.toUpperCase()))).toBe(key.publicKeyUncompressed)
  })

  it('rejects a point that is not on the curve, and wrong lengths', async () => {
    const offCurve = '02' + 'ff'.repeat(32)
    const notOnCurve = (await caught(() => decompressPublicKey(offCurve))) as WalletCryptoError
    expect(notOnCurve.code).toBe('INVALID_KEY')
    expect(notOnCurve.message).toBe('public key is not a valid P-256 point')
    const wrongLength = (await caught(() => compressPublicKey('04' + '11'.repeat(40)))) as WalletCryptoError
    expect(wrongLength.message).toMatch(/33 \(compressed\) or 65 \(uncompressed\) bytes, got 41/)
  })

  it('rejects the zero scalar and the group order as private keys without echoing them', async () => {
    const n = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551'
    for (const bad of ['00'.repeat(32), n, '01'.repeat(31)]) {
      const error = (await caught(() => publicKeyFromPrivate(bad, true))) as WalletCryptoError
      expect(error.code).toBe('INVALID_KEY')
      expect(error.message).not.toContain(bad)
    }
  })
})
