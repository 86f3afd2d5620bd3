// `svc webhooks certify`: the case families in a fixed order, judged one by one, then the scorecard.
import {createPrivateKey, type KeyObject} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {usageError} from '../errors.js'
import {sandboxDataDir} from '../paths.js'
import {approvalCases} from './approval.js'
import {callbackCases, type SandboxProbe} from './callback.js'
import {coverageCases} from './coverage.js'
import {idempotencyCases} from './idempotency.js'
import {orderCases} from './order.js'
import {makeKit, type CaseResult} from './kit.js'
import {retryCases, timelinessCase} from './retries.js'
import {signatureCases} from './signature.js'

export interface CertifyResult {
  url: string
  seed: number
  passed: boolean
  cases: CaseResult[]
}

/**
 * The private key deliveries are signed with: --key, else the local sandbox's own webhook key, so a
 * receiver that trusts the sandbox (GET /sandbox/webhook-public-key) trusts certify too.
 */
export function loadSigningKey(file: string | undefined, env?: NodeJS.ProcessEnv): KeyObject {
  const path = file ?? join(sandboxDataDir(env), 'webhook-key.pem')
  let pem: string
  try {
    pem = readFileSync(path, 'utf8')
  } catch (e) {
    throw usageError(
      `Cannot read the webhook signing key ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      file
        ? 'Pass a PEM P-256 private key with --key.'
        : 'Start the local sandbox once (`svc sandbox serve`), or pass --key <private-key.pem>.',
    )
  }
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch {
    throw usageError(`${path} is not a PEM private key`, 'Pass a PEM P-256 private key with --key.')
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw usageError(`${path} is not an ECDSA P-256 key, the Service's webhook signature scheme`)
  return key
}

export async function certify(opts: {
  url: string
  key: KeyObject
  seed: number
  startMs: number
  /** With a sandbox, the cases it observes run too (the receiver's calls back into it). */
  sandbox?: SandboxProbe
}): Promise<CertifyResult> {
  const kit = makeKit(opts)
  const cases: CaseResult[] = []
  for (const family of [signatureCases, idempotencyCases, retryCases, approvalCases, orderCases, coverageCases])
    cases.push(...(await family(kit)))
  if (opts.sandbox) cases.push(...(await callbackCases(kit, opts.sandbox)))
  cases.push(timelinessCase(kit))
  return {url: opts.url, seed: opts.seed, passed: cases.every((c) => c.passed), cases}
}

/** JUnit XML: one testsuite, one testcase per case, a failure element with expected/observed. */
export function junitXml(r: CertifyResult): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  const failures = r.cases.filter((c) => !c.passed).length
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="svc webhooks certify ${esc(r.url)}" tests="${r.cases.length}" failures="${failures}">`,
    ...r.cases.map((c) => {
      const [family] = c.name.split(':')
      const open = `  <testcase classname="certify.${esc(family!)}" name="${esc(c.name)}"`
      return c.passed
        ? `${open}/>`
        : `${open}>\n    <failure message="${esc(`expected ${c.expected}; observed ${c.observed}`)}"/>\n  </testcase>`
    }),
    '</testsuite>',
  ]
  return lines.join('\n') + '\n'
}
