import {afterAll, expect, inject} from 'vitest'
import {recordedExchanges, writeFileCoverage} from './contract-recorder.js'

/**
 * After each test file: every answer the in-process sandbox gave, and every request the CLI sent
 * to it, is checked against the published contract. A finding not excused by the allow-list
 * (test/helpers/contract-allow.ts) fails the file.
 */
afterAll(async () => {
  const exchanges = recordedExchanges()
  if (!exchanges.length) return
  const [{Contract}, {checkExchanges}, {formatFindings}] = await Promise.all([import('./contract.js'), import('./contract-check.js'), import('./contract-report.js')])
  const contract = await Contract.load(undefined, inject('contractJson') || undefined)
  const result = checkExchanges(contract, exchanges)
  const report = result.findings.length ? formatFindings(result.findings) : ''
  writeFileCoverage(expect.getState().testPath ?? '', {...result, findings: result.findings.length, report})
  if (report) throw new Error(report)
})
