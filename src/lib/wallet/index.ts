/** Public API of the embedded-wallet crypto library (formats: ../shared/spec/wallet-crypto.md). */
export * from './bundles.js'
export {
  base64urlDecode,
  base64urlEncode,
  type BytesLike,
  bytesToHex,
  compressPublicKey,
  decompressPublicKey,
  hexToBytes,
  publicKeyFromPrivate,
  utf8Decode,
  utf8Encode,
} from './encoding.js'
export {isWalletCryptoError, WalletCryptoError, type WalletCryptoErrorCode} from './errors.js'
export {HPKE_INFO, type HpkeOpenInput, type HpkeSealed, type HpkeSealInput, hpkeOpen, hpkeSeal} from './hpke.js'
export * from './stamp.js'
