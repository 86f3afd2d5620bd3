import {accessSync, constants, existsSync, readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import type {Context} from '../context.js'
import {sandboxDataDir} from '../paths.js'
import {cleanPartialCopies} from '../partial-copies.js'
import {runningPid} from '../sandbox-process.js'
import {sandboxStoreCall, type LoadSandboxStore} from '../sandbox-store.js'
import type {Check} from './check.js'

// The local sandbox's checks: it runs, its data dir is readable, its database is sound.

export function sandboxCheck(ctx: Context, reachable: boolean): Check {
  let environment
  try {
    environment = ctx.profile.environment
  } catch {
    return {name: 'local sandbox', status: 'skipped', detail: 'no usable profile'}
  }
  if (environment !== 'local')
    return {name: 'local sandbox', status: 'skipped', detail: `not used: the profile's environment is ${environment}`}
  const dir = sandboxDataDir(ctx.env)
  const pid = runningPid(dir)
  const problems = dataDirProblems(dir)
  const where = `data dir ${dir}`
  if (!reachable) {
    return {
      name: 'local sandbox',
      status: 'problem',
      detail: `not running at ${new URL(ctx.profile.baseUrl).origin} (${where}${problems.length ? `; ${problems.join('; ')}` : ''})`,
      hint: 'Start it with `svc sandbox serve --detach` (or `svc sandbox serve` in another terminal).',
    }
  }
  if (problems.length)
    return {
      name: 'local sandbox',
      status: 'problem',
      detail: `running, but ${problems.join('; ')} (${where})`,
      hint: 'Check the permissions of the data dir; `svc sandbox reset` starts a fresh one (the data is lost).',
    }
  return {
    name: 'local sandbox',
    status: 'ok',
    detail: `running at ${new URL(ctx.profile.baseUrl).origin}${pid ? ` (pid ${pid})` : ''}; ${where} readable`,
  }
}

/** The local sandbox's database file, or why a check of it is skipped (no usable profile, not the local environment). */
function localDatabase(ctx: Context, name: string): string | Check {
  let environment
  try {
    environment = ctx.profile.environment
  } catch {
    return {name, status: 'skipped', detail: 'no usable profile'}
  }
  if (environment !== 'local')
    return {name, status: 'skipped', detail: `not used: the profile's environment is ${environment}`}
  return join(sandboxDataDir(ctx.env), 'sandbox.db')
}

/** The local sandbox's database passes SQLite's integrity check (read-only, safe while it serves). */
export async function databaseCheck(ctx: Context, loadStore: LoadSandboxStore): Promise<Check> {
  const name = 'sandbox database'
  const file = localDatabase(ctx, name)
  if (typeof file !== 'string') return file
  if (!existsSync(file))
    return {name, status: 'skipped', detail: `${file} does not exist yet (made at the first start)`}
  try {
    const {tables} = await sandboxStoreCall(loadStore, (store) => store.checkDatabase(file))
    return {name, status: 'ok', detail: `${file}: integrity check passed (${tables} tables)`}
  } catch (e) {
    return {
      name,
      status: 'problem',
      detail: (e as Error).message,
      hint: 'Restore a backup with `svc sandbox restore <file>`, or move the file aside and run `svc sandbox reset`.',
    }
  }
}

/** Card EXCEPTIONs keep their holds until resolved (issue 29 F17): listed as needing attention. */
export async function cardExceptionsCheck(ctx: Context, loadStore: LoadSandboxStore): Promise<Check> {
  const name = 'card exceptions'
  const file = localDatabase(ctx, name)
  if (typeof file !== 'string') return file
  let open
  try {
    open = await sandboxStoreCall(loadStore, (store) => store.cardExceptions(file))
  } catch {
    return {name, status: 'skipped', detail: 'the sandbox database cannot be read (see above)'}
  }
  if (!open.length) return {name, status: 'ok', detail: 'no card transaction in EXCEPTION'}
  const shown = open.slice(0, 5).map((t) => `${t.id} (holds ${t.heldAmount})`)
  return {
    name,
    status: 'warn',
    detail: `${open.length} card transaction(s) in EXCEPTION keep their holds: ${shown.join(', ')}${open.length > 5 ? ', …' : ''}`,
    hint: 'Resolve each: `svc sandbox card exception_resolution <cardId> --transaction <id> --resolution SETTLE|RETURN`.',
  }
}

/**
 * Files a killed `svc sandbox snapshot save` (or backup) left: removed here, the one thing doctor
 * changes, since nothing else would and they may hold a copy of the sandbox's secrets. No line when there were none.
 */
export function partialCopiesCheck(ctx: Context): Check[] {
  const removed = cleanPartialCopies(sandboxDataDir(ctx.env))
  if (!removed.length) return []
  return [
    {
      name: 'partial copies',
      status: 'warn',
      detail: `removed ${removed.length} file(s) a killed snapshot save left: ${removed.join(', ')}`,
    },
  ]
}

/**
 * The data dir and every file in it exist and are readable. A deeper integrity check of the store
 * belongs here once the storage format settles.
 */
export function dataDirProblems(dir: string): string[] {
  let names: string[]
  try {
    if (!statSync(dir).isDirectory()) return [`${dir} is not a directory`]
    names = readdirSync(dir)
  } catch (e) {
    return [(e as NodeJS.ErrnoException).code === 'ENOENT' ? `${dir} does not exist` : `${dir} cannot be read`]
  }
  if (!names.includes('credentials.json')) return ['credentials.json is missing']
  const unreadable = names.filter((n) => {
    try {
      accessSync(join(dir, n), constants.R_OK)
      return false
    } catch {
      return true
    }
  })
  return unreadable.length ? [`unreadable: ${unreadable.join(', ')}`] : []
}
