import {existsSync} from 'node:fs'
import {resolve} from 'node:path'
import type {TrustedCa} from './api/dispatcher.js'
import {isLoopback, type ResolvedProfile} from './config.js'
import {sandboxDataDir} from './paths.js'
import {sandboxCaFile} from './sandbox-process.js'

/**
 * The CA svc trusts besides the system's (and NODE_EXTRA_CA_CERTS, which Node reads itself):
 * --ca-file, else SVC_CA_FILE, else the profile's caFile (`svc login --ca-file`), else, for a local
 * profile on an https loopback URL, the CA the local sandbox made for `serve --tls`.
 */
export function trustedCa(
  flag: string | undefined,
  p: Pick<ResolvedProfile, 'baseUrl' | 'environment' | 'caFile' | 'name'>,
  env: NodeJS.ProcessEnv,
  dataDir = sandboxDataDir(env),
): TrustedCa | undefined {
  if (flag) return {file: resolve(flag), from: '--ca-file'}
  if (env.SVC_CA_FILE) return {file: resolve(env.SVC_CA_FILE), from: 'SVC_CA_FILE'}
  if (p.caFile) return {file: p.caFile, from: `profile ${p.name}`}
  if (p.environment === 'local' && p.baseUrl.startsWith('https:') && isLoopback(p.baseUrl)) {
    const file = sandboxCaFile(dataDir)
    if (existsSync(file)) return {file, from: 'the local sandbox'}
  }
  return undefined
}
