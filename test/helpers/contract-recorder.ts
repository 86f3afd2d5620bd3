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

/** A webhook body the sandbox emitted while handling a request or a job (checked against the contract's webhooks: section). */
export interface EmittedWebhook {
  test: string
  body: {id: string; type: string; timestamp: string; data?: unknown}
}
const webhooks: EmittedWebhook[] = []

export function recordContract(emu: Emulator): void {
  emu.onResponse = (req, res) => exchanges.push(toExchange(req, res))
  // Only events the sandbox emits itself (inside a request's or a job's unit): a test that calls
  // emit() directly with a made-up body is exercising delivery, not the sandbox's payloads.
  const emit = emu.webhooks.emit.bind(emu.webhooks)
  emu.webhooks.emit = (type, data) => {
    const event = emit(type, data)
    if (emu.db.inUnit)
      webhooks.push({test: expect.getState().currentTestName ?? '(hook)', body: JSON.parse(JSON.stringify(event))})
    return event
  }
}

export function recordedExchanges(): Exchange[] {
  return exchanges
}

export function recordedWebhooks(): EmittedWebhook[] {
  return webhooks
}

/**
 * This file's exchanges and webhooks, taken: the records are emptied, so the next file in the same
 * worker (integration files share their modules: isolate false) is checked on its own records only.
 */
export function takeRecords(): {exchanges: Exchange[]; webhooks: EmittedWebhook[]} {
  return {exchanges: exchanges.splice(0), webhooks: webhooks.splice(0)}
}

function toExchange(req: ObservedRequest, res: EmuResponse): Exchange {
  const requestContentType = String(req.headers['content-type'] ?? '')
  const responseContentType = String(
    res.headers?.['content-type'] ??
      (res.text !== undefined ? 'text/plain' : res.body !== undefined ? 'application/json' : ''),
  )
  return {
    test: expect.getState().currentTestName ?? '(hook)',
    method: req.method,
    path: req.path,
    query: [...req.query.entries()],
    requestContentType,
    requestBody: req.rawBody ? parseBody(req.rawBody, requestContentType) : undefined,
    bodyUnread: req.rawBody === undefined,
    fromCli: String(req.headers['user-agent'] ?? '').startsWith('svc-cli/'),
    status: res.status,
    responseContentType,
    // a deep copy: the handler's object may be a stored record that changes later
    responseBody:
      res.text !== undefined ? res.text : res.body === undefined ? undefined : JSON.parse(JSON.stringify(res.body)),
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

/** What one test file exercised of the contract: written by the file, added up by contract-global.ts. */
export interface FileCoverage {
  file: string
  exercised: string[]
  succeeded: string[]
  /** Documented (operation, status) answers produced, and how many bodies matched the contract's schema. */
  answers: Record<string, {seen: number; valid: number; excusedBy?: string[]}>
  cliRequests: number
  allowanceUse: Record<string, number>
  findings: number
  report: string
}

/** Writes what this file exercised, for the run's summary (test/helpers/contract-global.ts). */
export function writeFileCoverage(file: string, data: Omit<FileCoverage, 'file'>): void {
  const dir = inject('contractDir')
  if (!dir) return
  mkdirSync(dir, {recursive: true})
  writeFileSync(
    join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`),
    JSON.stringify({file, ...data}),
  )
}
