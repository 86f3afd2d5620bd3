import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {Secret} from './secret.js'

/**
 * Optional passphrase protection of key-store records: scrypt derives a 256-bit key per record
 * (own salt), AES-256-GCM seals the private key hex. The public parts of a record stay readable so
 * `svc wallet keys list` works without the passphrase.
 */
export interface SealedKey {
  kdf: 'scrypt'
  n: number
  r: number
  p: number
  salt: string
  iv: string
  tag: string
  ct: string
}

// 2^15 costs ~50-100 ms and 32 MiB: slow for guessing, tolerable once per command.
const PARAMS = {n: 2 ** 15, r: 8, p: 1}

function derive(passphrase: Secret, salt: Buffer, params: {n: number; r: number; p: number}): Buffer {
  // node:crypto on use: the key store's readers (keys list) load this module but never seal or open.
  return process.getBuiltinModule('node:crypto').scryptSync(passphrase.reveal(), salt, 32, {
    N: params.n,
    r: params.r,
    p: params.p,
    maxmem: 128 * params.n * params.r * 2,
  })
}

export function sealKey(privateKeyHex: Secret, passphrase: Secret, aad: string): SealedKey {
  const {createCipheriv, randomBytes} = process.getBuiltinModule('node:crypto')
  const salt = randomBytes(16)
  const iv = randomBytes(12)
  const key = derive(passphrase, salt, PARAMS)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  // The record's public identity is authenticated too, so a sealed key cannot be moved to another record.
  cipher.setAAD(Buffer.from(aad))
  const ct = Buffer.concat([cipher.update(privateKeyHex.reveal(), 'utf8'), cipher.final()])
  return {
    kdf: 'scrypt',
    ...PARAMS,
    salt: salt.toString('hex'),
    iv: iv.toString('hex'),
    tag: cipher.getAuthTag().toString('hex'),
    ct: ct.toString('hex'),
  }
}

export function openKey(sealed: SealedKey, passphrase: Secret, aad: string): Secret {
  try {
    const key = derive(passphrase, Buffer.from(sealed.salt, 'hex'), sealed)
    const decipher = process
      .getBuiltinModule('node:crypto')
      .createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'hex'))
    decipher.setAAD(Buffer.from(aad))
    decipher.setAuthTag(Buffer.from(sealed.tag, 'hex'))
    return new Secret(
      Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'hex')), decipher.final()]).toString('utf8'),
    )
  } catch {
    throw new SvcError({
      code: 'KEYSTORE_PASSPHRASE_WRONG',
      message: 'The key store passphrase does not open this session key',
      exitCode: ExitCode.AUTH,
      hint: 'Check SVC_KEYSTORE_PASSPHRASE, or purge the key (`svc wallet keys purge`) and log in again.',
    })
  }
}
