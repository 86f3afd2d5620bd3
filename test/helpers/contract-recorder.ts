import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, inject} from 'vitest'
import type {Emulator, ObservedRequest} from '../../src/emulator/emulator.js'
import type {EmuResponse} from '../../src/emulator/router.js'
import type {Exchange} from './contract-check.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each test file writes what it exercised of the contract (set by test/helpers/contract-global.ts). */
    contractDir: string
    /** The contract, parsed once for the run (JSON). */
    contractJson: string
  }
}

/**
 * Records what the in-process sandbox answers while a test file runs. Recording is a push onto an
 * array; the contract is loaded and the exchanges checked once, after the file's tests
 * (test/helpers/contract-setup.ts), so the sandbox is not slowed while tests run and not at all outside tests.
 */
const exchanges: Exchange[] = []

export function recordContract(emu: Emulator): void {
  emu.onResponse = (req, res) => exchanges.push(toExchange(req, res))
}

export function recordedExchanges(): Exchange[] {
  return exchanges
}

function toExchange(req: ObservedRequest, res: EmuResponse): Exchange {
  const requestContentType = String(req.headers['content-type'] ?? '')
  const responseContentType = String(res.headers?.['content-type'] ?? (res.text !== undefined ? 'text/plain' : res.body !== undefined ? 'application/json' : ''))
  return {
    test: expect.getState().currentTestName ?? '(hook)',
    method: req.method,
    path: req.path,
    query: [...req.query.entries()],
    requestContentType,
    requestBody: parseBody(req.rawBody, requestContentType),
    fromCli: String(req.headers['user-agent'] ?? '').startsWith('svc-cli/'),
    status: res.status,
    responseContentType,
    // a deep copy: the handler's object may be a stored record that changes later
    responseBody: res.text !== undefined ? res.text : res.body === undefined ? undefined : JSON.parse(JSON.stringify(res.body)),
  }
}

function parseBody(raw: Buffer, contentType: string): unknown {
  if (!raw.length) return undefined
  if (!contentType.includes('json')) return raw.toString('latin1').slice(0, 200)
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return raw.toString('utf8')
  }
}

/** Writes what this file exercised, for the run's summary (test/helpers/contract-global.ts). */
export function writeFileCoverage(file: string, data: {exercised: string[]; succeeded: string[]; cliRequests: number; allowanceUse: Record<string, number>; findings: number; report: string}): void {
  const dir = inject('contractDir')
  if (!dir) return
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`), JSON.stringify({file, ...data}))
}
