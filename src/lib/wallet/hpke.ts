/**
 * The HPKE suite every wallet bundle uses (RFC 9180, Base mode):
 * DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, info "turnkey_hpke", one message per
 * context. The one non-standard choice is the AAD, `enc(65) || pkR(65)`; it depends on `enc`, so
 * sealing goes through a sender context rather than the one-shot API.
 */
import {p256} from '@noble/curves/nist.js'
import {Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256} from '@hpke/core'

import {type BytesLike, concatBytes, decompressPublicKey, toPrivateKey, utf8Encode} from './encoding.js'
import {WalletCryptoError} from './errors.js'

export const HPKE_INFO = utf8Encode('turnkey_hpke')

const suite = new CipherSuite({kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm()})

export interface HpkeSealInput {
  plaintext: Uint8Array
  /** Either SEC1 form; always used uncompressed. */
  recipientPublicKey: BytesLike
  /** Tests and vectors only: fixes the ephemeral key so the output is reproducible. */
  ephemeralPrivateKey?: BytesLike
}

export interface HpkeSealed {
  /** Ephemeral public key, 65 bytes uncompressed. */
  enc: Uint8Array
  /** AES-256-GCM ciphertext followed by the 16-byte tag. */
  ciphertext: Uint8Array
}

export interface HpkeOpenInput {
  /** Either SEC1 form (credential bundles carry it compressed). */
  enc: BytesLike
  ciphertext: Uint8Array
  recipientPrivateKey: BytesLike
}

// WebCrypto wants a plain ArrayBuffer; a Uint8Array may be a view into a larger or shared buffer.
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return Uint8Array.from(bytes).buffer
}

async function importPrivateKey(privateKey: Uint8Array) {
  // @hpke/core wraps the raw scalar in PKCS#8 itself.
  return suite.kem.importKey('raw', toArrayBuffer(privateKey), false)
}

async function importKeyPair(privateKey: BytesLike) {
  const sk = toPrivateKey(privateKey, 'ephemeral private key')
  return {
    privateKey: await importPrivateKey(sk),
    publicKey: await suite.kem.deserializePublicKey(p256.getPublicKey(sk, false)),
  }
}

export async function hpkeSeal({
  plaintext,
  recipientPublicKey,
  ephemeralPrivateKey,
}: HpkeSealInput): Promise<HpkeSealed> {
  // A compressed pkR in kem_context/AAD yields ciphertext nobody can open; always use 65 bytes.
  const pkR = decompressPublicKey(recipientPublicKey, 'recipient public key')
  const ekm = ephemeralPrivateKey === undefined ? undefined : await importKeyPair(ephemeralPrivateKey)
  const context = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(pkR),
    info: HPKE_INFO,
    ekm,
  })
  const enc = new Uint8Array(context.enc)
  const ciphertext = new Uint8Array(await context.seal(plaintext, concatBytes(enc, pkR)))
  return {enc, ciphertext}
}

export async function hpkeOpen({enc, ciphertext, recipientPrivateKey}: HpkeOpenInput): Promise<Uint8Array> {
  const sk = toPrivateKey(recipientPrivateKey, 'recipient private key')
  const pkR = p256.getPublicKey(sk, false)
  const enc65 = decompressPublicKey(enc, 'encapsulated public key')
  try {
    const context = await suite.createRecipientContext({
      recipientKey: await importPrivateKey(sk),
      enc: enc65,
      info: HPKE_INFO,
    })
    return new Uint8Array(await context.open(ciphertext, concatBytes(enc65, pkR)))
  } catch (error) {
    throw new WalletCryptoError(
      'DECRYPT_FAILED',
      'decryption failed: the bundle was altered, or it was not encrypted to this key',
      {cause: error},
    )
  }
}
