import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {ensurePrivateDir, writePrivateFileAtomic} from './fs-safe.js'
import {configDir} from './paths.js'
import type {SoftwarePasskey} from './wallet/passkey-authenticator.js'
import {currentEnv} from './io.js'

/** Credentials of the sandbox software authenticator: one 0600 file per credential in a 0700 dir. */
export function passkeyDir(env = currentEnv()): string {
  return join(configDir(env), 'passkeys')
}

function fileOf(dir: string, credentialId: string): string {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(credentialId))
    throw new SvcError({
      code: 'INVALID_INPUT',
      message: 'credentialId must be base64url text',
      exitCode: ExitCode.USAGE,
    })
  return join(dir, `${credentialId}.json`)
}

export function savePasskey(passkey: SoftwarePasskey, env = currentEnv()): void {
  const dir = passkeyDir(env)
  ensurePrivateDir(dir)
  writePrivateFileAtomic(fileOf(dir, passkey.credentialId), JSON.stringify(passkey, null, 2) + '\n')
}

export function loadPasskey(credentialId: string, env = currentEnv()): SoftwarePasskey {
  try {
    return JSON.parse(readFileSync(fileOf(passkeyDir(env), credentialId), 'utf8')) as SoftwarePasskey
  } catch (error) {
    if (error instanceof SvcError) throw error
    throw new SvcError({
      code: 'PASSKEY_NOT_FOUND',
      message: `The software authenticator holds no credential ${credentialId}`,
      exitCode: ExitCode.NOT_FOUND,
      hint: 'Create one with `svc sandbox passkey create` (credentials live in the config dir of this machine).',
    })
  }
}
