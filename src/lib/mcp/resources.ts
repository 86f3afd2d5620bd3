import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {usageError} from '../errors.js'

/** The guides an assistant reads before it acts (docs/*.md of this installation, where present). */
const GUIDES: Record<string, string> = {
  'kyc.md': 'Customers, KYC and KYB: documents, owners, contact verification, the sandbox’s magic values',
  'money.md': 'Internal and external accounts, quotes, execution, real-time funding, transactions',
  'wallets.md': 'Embedded wallets: login, credentials, sessions, export, the key store, the sandbox enclave',
  'sandbox.md': 'The local sandbox: credentials, data dir, validation, knobs, its clock, team sandboxes',
  'mcp.md': 'This server: the tools, plan then confirm, and what each safety rule guarantees',
}

const uriOf = (file: string) => `svc://docs/${file}`

export function guideResources(root: string) {
  return Object.entries(GUIDES)
    .filter(([file]) => existsSync(join(root, 'docs', file)))
    .map(([file, description]) => ({uri: uriOf(file), name: file, description, mimeType: 'text/markdown'}))
}

export function readGuide(root: string, uri: string) {
  const file = Object.keys(GUIDES).find((f) => uriOf(f) === uri)
  if (!file || !existsSync(join(root, 'docs', file))) throw usageError(`No resource ${uri}`)
  return {uri, mimeType: 'text/markdown', text: readFileSync(join(root, 'docs', file), 'utf8')}
}
