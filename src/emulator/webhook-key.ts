// The sandbox's webhook signing key (ECDSA P-256, 0600 in the data dir) and the signature of a body.
import {createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {writePrivateFileAtomic} from '../lib/fs-safe.js'
import {DataFileError} from './data-files.js'

/** Loads (or creates once) the sandbox's P-256 webhook signing key, kept 0600 in the data dir. */
export function loadWebhookKey(dataDir: string): {privateKey: KeyObject; publicKeyPem: string} {
  const path = join(dataDir, 'webhook-key.pem')
  if (!existsSync(path)) {
    const {privateKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
    writePrivateFileAtomic(path, privateKey.export({type: 'pkcs8', format: 'pem'}) as string)
  }
  const recovery =
    'Restore it from a backup, or delete it to have a new key made (webhook receivers must then trust the new public key).'
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new DataFileError(path, 'is not a PEM private key', recovery, e)
  }
  // Every delivery is signed ECDSA P-256 (X-Service-Signature): another key would fail each one later, so it is refused now.
  const curve = privateKey.asymmetricKeyDetails?.namedCurve
  if (privateKey.asymmetricKeyType !== 'ec' || curve !== 'prime256v1') {
    throw new DataFileError(
      path,
      `holds a${privateKey.asymmetricKeyType === 'ec' ? `n EC ${curve}` : ` ${privateKey.asymmetricKeyType}`} key, not the ECDSA P-256 key webhooks are signed with`,
      recovery,
    )
  }
  const publicKeyPem = createPublicKey(privateKey).export({type: 'spki', format: 'pem'}) as string
  return {privateKey, publicKeyPem}
}

/** base64 DER ECDSA P-256 over SHA-256 of the exact body bytes (header X-Service-Signature). */
export function signBody(body: string, key: KeyObject): string {
  return sign('sha256', Buffer.from(body), {key, dsaEncoding: 'der'}).toString('base64')
}
