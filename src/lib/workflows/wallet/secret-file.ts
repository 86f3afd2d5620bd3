import {closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync, writeSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {randomBytes} from 'node:crypto'
import {usageError} from '../../errors.js'

/** Refuses, before anything is requested, an --out path that exists (unless --force) or has no directory. */
export function checkOutPath(path: string, force = false): void {
  const full = resolve(path)
  if (existsSync(full) && !force)
    throw usageError(
      `${path} exists already; refusing to overwrite it`,
      'Choose a new file name, or pass --force to replace it.',
    )
  if (existsSync(full) && statSync(full).isDirectory()) throw usageError(`${path} is a directory`)
  if (!existsSync(dirname(full))) throw usageError(`The directory of ${path} does not exist`)
}

/**
 * Writes a secret to a 0600 file: temp file + fsync, then a hard link (fails if the name appeared
 * meanwhile: no silent overwrite) or, with force, a rename.
 */
export function writeSecretFile(path: string, data: string, force = false): void {
  const full = resolve(path)
  const tmp = `${full}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(tmp, 'wx', 0o600)
  try {
    writeSync(fd, Buffer.from(data, 'utf8'))
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    if (force) renameSync(tmp, full)
    else linkSync(tmp, full)
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === 'EEXIST'
      ? usageError(`${path} appeared while exporting; refusing to overwrite it`, 'Use --force or another name.')
      : error
  } finally {
    rmSync(tmp, {force: true})
  }
}
