import {describe, expect, it} from 'vitest'

import {
  bytesToHex,
  makeSignedEnvelope,
  makeUnsignedEnvelope,
  parseSignedEnvelope,
  utf8Encode,
  verifySignedEnvelope,
  WalletCryptoError,
} from '../../../src/lib/wallet/index.js'
import {caught, vectors} from './vectors.js'

const quorum = vectors.keys.quorum
const targetBundle = vectors.otp.vectors[0]!.otpEncryptionTargetBundle

describe('parseSignedEnvelope()', () => {
  it('reads the four fields of a vector envelope', () => {
    const envelope = parseSignedEnvelope(targetBundle)
    expect(envelope.version).toBe('v1.0.0')
    expect(envelope.enclaveQuorumPublic).toBe(quorum.publicKeyUncompressed)
    expect(envelope.data.startsWith('7b227461726765745075626c6963')).toBe(true)
    expect(envelope.dataSignature).toMatch(/^30[0-9a-f]+$/)
  })

  it('unwraps one level of JSON string wrapping', () => {
    expect(parseSignedEnvelope(JSON.stringify(targetBundle))).toEqual(parseSignedEnvelope(targetBundle))
  })

  it('reads missing or null signature fields as unsigned', () => {
    const data = bytesToHex(utf8Encode('{}'))
    expect(parseSignedEnvelope(JSON.stringify({version: 'v1.0.0', data, dataSignature: null}))).toEqual({
      version: 'v1.0.0',
      data,
      dataSignature: '',
      enclaveQuorumPublic: '',
    })
  })

  it.each([
    ['not JSON', '{', /it is not JSON/],
    ['an array', '[]', /not a JSON object/],
    ['no version', JSON.stringify({data: '00'}), /version is missing/],
    ['data not hex', JSON.stringify({version: 'v1.0.0', data: 'xyz'}), /data must be non-empty hex/],
    ['empty data', JSON.stringify({version: 'v1.0.0', data: ''}), /data must be non-empty hex/],
    [
      'signature not hex',
      JSON.stringify({version: 'v1.0.0', data: '00', dataSignature: 'zz'}),
      /dataSignature must be hex/,
    ],
  ])('rejects %s with ENVELOPE_MALFORMED', async (_name, text, message) => {
    const error = (await caught(() => parseSignedEnvelope(text))) as WalletCryptoError
    expect(error.code).toBe('ENVELOPE_MALFORMED')
    expect(error.message).toMatch(message)
  })
})

describe('verifySignedEnvelope()', () => {
  const envelope = parseSignedEnvelope(targetBundle)

  it('returns the signed data, pinned when the quorum key matches the pin', () => {
    expect(verifySignedEnvelope(envelope, {pinnedQuorumKey: quorum.publicKeyUncompressed})).toEqual({
      signedData: vectors.otp.signedData,
      trust: 'pinned',
    })
  })

  it('without a pin only proves integrity, and says so', () => {
    expect(verifySignedEnvelope(envelope).trust).toBe('unpinned')
  })

  it('compares the pin as a case-sensitive string, like the reference', async () => {
    const error = (await caught(() =>
      verifySignedEnvelope(envelope, {pinnedQuorumKey: quorum.publicKeyUncompressed.toUpperCase()}),
    )) as WalletCryptoError
    expect(error.code).toBe('QUORUM_KEY_MISMATCH')
    expect(error.message).toBe(
      `the bundle is signed by enclave quorum key ${quorum.publicKeyUncompressed}, not the pinned key ${quorum.publicKeyUncompressed.toUpperCase()}`,
    )
  })

  it('rejects a signature that does not cover the data, even when unsigned bundles are allowed', async () => {
    const tampered = {...envelope, data: envelope.data + '20'}
    for (const bad of [tampered, {...envelope, dataSignature: '3006020101020101'}]) {
      const error = (await caught(() => verifySignedEnvelope(bad, {allowUnsigned: true}))) as WalletCryptoError
      expect(error.code).toBe('ENVELOPE_SIGNATURE_INVALID')
      expect(error.message).toBe(
        'the enclave signature over the bundle data does not verify: the bundle was altered or corrupted',
      )
    }
  })

  it('rejects unsigned envelopes unless explicitly allowed', async () => {
    const unsigned = parseSignedEnvelope(
      makeUnsignedEnvelope({targetPublic: vectors.keys.otpTarget.publicKeyUncompressed}),
    )
    const error = (await caught(() =>
      verifySignedEnvelope(unsigned, {pinnedQuorumKey: quorum.publicKeyUncompressed}),
    )) as WalletCryptoError
    expect(error.code).toBe('ENVELOPE_UNSIGNED')
    expect(error.message).toMatch(/no enclave signature .* only in sandbox mode when explicitly allowed/)
    expect(verifySignedEnvelope(unsigned, {allowUnsigned: true})).toEqual({
      signedData: {targetPublic: vectors.keys.otpTarget.publicKeyUncompressed},
      trust: 'unsigned',
    })
  })

  it('refuses an empty pin instead of silently not pinning', async () => {
    expect(
      ((await caught(() => verifySignedEnvelope(envelope, {pinnedQuorumKey: ''}))) as WalletCryptoError).code,
    ).toBe('INVALID_INPUT')
  })

  it('rejects signed data that is not a JSON object', async () => {
    const error = (await caught(() =>
      verifySignedEnvelope(parseSignedEnvelope(makeSignedEnvelope([] as never, quorum.privateKey))),
    )) as WalletCryptoError
    expect(error.code).toBe('ENVELOPE_MALFORMED')
    expect(error.message).toMatch(/data is not a JSON object/)
  })
})

describe('makeSignedEnvelope()', () => {
  it.each(vectors.otp.vectors.map((v) => [v.name, v] as const))(
    '%s: reproduces the target bundle byte for byte',
    (_n, v) => {
      expect(makeSignedEnvelope(vectors.otp.signedData, quorum.privateKey)).toBe(v.otpEncryptionTargetBundle)
    },
  )

  it('writes the sandbox shape with empty signature fields', () => {
    expect(makeUnsignedEnvelope({a: 1})).toBe(
      '{"version":"v1.0.0","data":"7b2261223a317d","dataSignature":"","enclaveQuorumPublic":""}',
    )
  })
})
