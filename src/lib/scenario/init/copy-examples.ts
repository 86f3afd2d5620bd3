import {copyFileSync, existsSync, mkdirSync, readdirSync, statSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'
import {InputError} from '../../errors.js'

export interface InitResult {
  dir: string
  /** Paths written, relative to `dir`. */
  files: string[]
}

/**
 * `svc flow init [DIR]`: copies the example flows the package ships (`flows/`, with the documents
 * their KYC steps upload) into DIR, so a first flow can be edited instead of written from nothing.
 * Existing files are named and left alone unless `force`; nothing is written when any would be.
 */
export function copyExampleFlows(packageRoot: string, dir: string, force: boolean): InitResult {
  const source = join(packageRoot, 'flows')
  const target = resolve(dir)
  const files = listFiles(source)
  if (existsSync(target) && !statSync(target).isDirectory())
    throw new InputError([{field: 'dir', message: `${dir} is a file, not a folder`}], undefined, 'Nothing was written.')
  const taken = force ? [] : files.filter((f) => existsSync(join(target, f)))
  if (taken.length) {
    throw new InputError(
      taken.map((f) => ({field: join(dir, f), message: 'exists (pass --force to overwrite it)'})),
      undefined,
      'Nothing was written.',
    )
  }
  for (const f of files) {
    mkdirSync(join(target, f, '..'), {recursive: true})
    copyFileSync(join(source, f), join(target, f))
  }
  return {dir: target, files}
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, {withFileTypes: true})
    .flatMap((e) => (e.isDirectory() ? listFiles(root, join(dir, e.name)) : [relative(root, join(dir, e.name))]))
    .sort()
}
