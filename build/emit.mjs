// Emits src/**/*.ts to dist/ file for file (no bundling), as `tsc --noCheck` would: same paths,
// same ES modules, types erased. esbuild does it in about a second where tsc takes ten; the type
// check is tsc's alone (`npm run lint` runs `tsc --noEmit`). oclif's manifest reads dist/commands,
// tests load dist/ modules, and esbuild.config.mjs bundles from src/.
import {readdirSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {build} from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const sources = readdirSync(join(root, 'src'), {recursive: true, encoding: 'utf8'})
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(root, 'src', f))

await build({
  entryPoints: sources,
  outdir: join(root, 'dist'),
  outbase: join(root, 'src'),
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
})
