// The build id shared by the per-file output (build/emit.mjs) and every one-file bundle (bin/load-bundle.js says why).
// The first bundling step of a build makes one and writes it into dist/lib/build-id.js (the emit just
// wrote it empty); the later steps of the same build read it back.
import {randomBytes} from 'node:crypto'
import {renameSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'

const {buildIdOf, stampOf} = createRequire(import.meta.url)('../bin/load-bundle.js')

/**
 * This build's id: the one dist/lib/build-id.js holds, else (or with `fresh`: the first step, whose
 * new bundles must not meet the code caches of older ones) a new one written there.
 */
export function buildIdFor(root, {fresh = false} = {}) {
  const dist = join(root, 'dist')
  const existing = buildIdOf(dist)
  if (existing && !fresh) return existing
  const id = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`
  const file = join(dist, 'lib', 'build-id.js')
  writeFileSync(
    `${file}.tmp`,
    `// Written by build/build-id.mjs: the id stamped into this build's bundles.\nexport const BUILD_ID = '${id}';\n`,
  )
  renameSync(`${file}.tmp`, file)
  return id
}

export {stampOf}
