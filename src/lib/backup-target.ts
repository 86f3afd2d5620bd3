import {existsSync, realpathSync, statSync} from 'node:fs'
import {basename, dirname, join, relative, resolve, isAbsolute} from 'node:path'
import {SvcError} from './errors.js'
import {ExitCode, type ExitCodeValue} from './exit-codes.js'

/**
 * Where a backup of a sandbox may be written, decided before anything is copied: never onto the
 * live database or anywhere inside the data dir (a backup there is overwritten or deleted with the
 * state it should protect), and never over an existing file unless `force`.
 */
export function checkBackupTarget(dataDir: string, file: string, force: boolean): string {
  const target = resolve(file)
  const parent = dirname(target)
  if (!existsSync(parent))
    throw refuse(
      'BACKUP_TARGET_INVALID',
      ExitCode.USAGE,
      `${parent} does not exist`,
      'Create the directory first, or write the backup elsewhere.',
    )
  const inside = (dir: string, path: string) => {
    const rel = relative(dir, path)
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
  }
  const realTarget = join(realpathSync(parent), basename(target))
  const realData = existsSync(dataDir) ? realpathSync(dataDir) : resolve(dataDir)
  if (inside(realData, realTarget)) {
    throw refuse(
      'BACKUP_TARGET_INVALID',
      ExitCode.USAGE,
      `${target} is inside the sandbox's data dir (${realData}); a backup there could overwrite the live database or go with it`,
      'Write the backup outside the data dir, e.g. ./sandbox-backup.db.',
    )
  }
  if (existsSync(target)) {
    const live = join(realData, 'sandbox.db')
    const same =
      existsSync(live) && statSync(live).ino === statSync(target).ino && statSync(live).dev === statSync(target).dev
    if (same)
      throw refuse(
        'BACKUP_TARGET_INVALID',
        ExitCode.USAGE,
        `${target} is the live database itself (a link to ${live})`,
        'Write the backup to a new file.',
      )
    if (!force)
      throw refuse(
        'BACKUP_TARGET_EXISTS',
        ExitCode.CONFLICT,
        `${target} already exists; it was not replaced`,
        'Pass --force to replace it, or choose another file.',
      )
  }
  return target
}

const refuse = (code: string, exitCode: ExitCodeValue, message: string, hint: string) =>
  new SvcError({code, exitCode, message, hint})
