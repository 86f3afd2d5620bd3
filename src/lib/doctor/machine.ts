import {readFileSync, readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {readConfig} from '../config.js'
import type {Context} from '../context.js'
import {keystoreDir} from '../keystore.js'
import type {Check} from './check.js'

// The checks of this machine's own state: the wallet key store, the pinned quorum key, Node.js.

const MIN_NODE = [20, 19]

export function keyStoreChecks(ctx: Context): Check[] {
  const dir = keystoreDir(ctx.env)
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'))
  } catch {
    return [
      {name: 'key store', status: 'ok', detail: `empty (${dir} not created yet)`},
      {name: 'expired keys', status: 'ok', detail: 'none'},
    ]
  }
  const loose = (statSync(dir).mode & 0o077) !== 0 ? [dir] : []
  let expired = 0
  for (const n of names) {
    const path = join(dir, n)
    if ((statSync(path).mode & 0o077) !== 0) loose.push(n)
    try {
      const record = JSON.parse(readFileSync(path, 'utf8')) as {expiresAt?: string}
      if (record.expiresAt && Date.parse(record.expiresAt) <= ctx.now()) expired++
    } catch {}
  }
  const perms: Check = loose.length
    ? {
        name: 'key store',
        status: 'problem',
        detail: `readable by others: ${loose.join(', ')}`,
        hint: `chmod 700 ${dir} && chmod 600 ${dir}/*.json (or \`svc wallet keys purge\`).`,
      }
    : {name: 'key store', status: 'ok', detail: `${names.length} key file(s) in ${dir}, owner-only`}
  const stale: Check = expired
    ? {
        name: 'expired keys',
        status: 'warn',
        detail: `${expired} expired session key(s) still on disk`,
        hint: 'They are deleted on the next wallet command; `svc wallet keys purge` deletes them now.',
      }
    : {name: 'expired keys', status: 'ok', detail: 'none'}
  return [perms, stale]
}

export function quorumCheck(ctx: Context): Check {
  let p
  try {
    p = ctx.profile
  } catch {
    return {name: 'quorum key', status: 'skipped', detail: 'no usable profile'}
  }
  const fromEnv = ctx.env.SVC_QUORUM_PUBLIC_KEY
  const configured =
    fromEnv ?? (readConfig(ctx.env).profiles?.[p.name] as {quorumPublicKey?: string} | undefined)?.quorumPublicKey
  const source = fromEnv ? 'SVC_QUORUM_PUBLIC_KEY' : `profile ${p.name}`
  if (configured) {
    if (!/^04[0-9a-fA-F]{128}$/.test(configured))
      return {
        name: 'quorum key',
        status: 'problem',
        detail: `${source} is not an uncompressed P-256 key`,
        hint: 'It is 130 hex characters starting 04, as the Service publishes it.',
      }
    return {
      name: 'quorum key',
      status: 'ok',
      detail: `pinned from ${source}: ${configured.slice(0, 10)}…${configured.slice(-6)}`,
    }
  }
  if (p.environment === 'local')
    return {name: 'quorum key', status: 'ok', detail: 'not pinned: the local sandbox publishes its own key'}
  if (p.environment === 'production')
    return {
      name: 'quorum key',
      status: 'problem',
      detail: 'not pinned: enclave bundles cannot be authenticated',
      hint: 'Set SVC_QUORUM_PUBLIC_KEY (or quorumPublicKey in the profile) to the key the Service publishes.',
    }
  return {
    name: 'quorum key',
    status: 'warn',
    detail: 'not pinned: bundles are checked for integrity, not authenticity',
    hint: 'Set SVC_QUORUM_PUBLIC_KEY to the key the Service publishes.',
  }
}

export function nodeCheck(version: string): Check {
  const [major, minor] = version.split('.').map(Number)
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])
  return ok
    ? {name: 'node', status: 'ok', detail: `v${version}`}
    : {
        name: 'node',
        status: 'problem',
        detail: `v${version} is older than ${MIN_NODE.join('.')}`,
        hint: 'Install Node.js 20.19 or newer.',
      }
}
