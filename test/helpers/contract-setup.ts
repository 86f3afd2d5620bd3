import {afterAll, expect, inject} from 'vitest'
import {takeRecords, writeFileCoverage} from './contract-recorder.js'

/**
 * After each test file: every answer the in-process sandbox gave, and every request the CLI sent
 * to it, is checked against the published contract, and so is every webhook body the sandbox
 * emitted (against the contract's `webhooks:` section). A finding not excused by the allow-list
 * (test/helpers/contract-allow.ts) fails the file.
 */
afterAll(async () => {
  const {exchanges, webhooks} = takeRecords()
  if (!exchanges.length) return
  const [{Contract}, {checkExchanges}, {formatFindings}, {webhookFindings}] = await Promise.all([
    import('./contract.js'),
    import('./contract-check.js'),
    import('./contract-report.js'),
    import('./contract-webhooks.js'),
  ])
  const contract = await Contract.load(undefined, inject('contractJson') || undefined)
  const result = checkExchanges(contract, exchanges)
  const hooks = webhookFindings(contract, webhooks)
  const report = [
    result.findings.length ? formatFindings(result.findings) : '',
    hooks.length ? `Webhook bodies that differ from the contract:\n${hooks.join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n')
  writeFileCoverage(expect.getState().testPath ?? '', {
    ...result,
    findings: result.findings.length + hooks.length,
    report,
  })
  if (report) throw new Error(report)
})
