import {expect} from 'vitest'
import type {CliResult} from './cli.js'
import {api} from './money.js'
import type {TestSandbox} from './sandbox.js'

/** Sets the sandbox's faults (a spec string or the object; null turns them off). */
export const setFaults = (sbx: TestSandbox, faults: unknown) =>
  api(sbx, 'PATCH', '/config', {sandbox: {faults}}).then((r) => expect(r.status, JSON.stringify(r.body)).toBe(200))

/** A command line as printed in a hint (`svc quote send --from … 'a b'`), back to the argv after `svc`. */
export function argvOf(line: string): string[] {
  const words: string[] = []
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : m[2])
  expect(words[0]).toBe('svc')
  return words.slice(1)
}

/** The OUTGOING transactions of one customer, as the sandbox holds them. */
export const outgoingOf = (sbx: TestSandbox, customerId: string) =>
  sbx.emu.db
    .all<{id: string; customerId: string; type: string; sentAmount: {amount: number}}>('transactions')
    .filter((t) => t.customerId === customerId && t.type === 'OUTGOING')

/**
 * Runs a command the way a CI script that reads the hints does: an OUTCOME_UNKNOWN (exit 10) is
 * re-run as its hint says (details.command: the same command with the same key) until it ends; any
 * other failure ends it. The last result, and how many re-runs it took.
 */
export async function runUntilKnown(
  sbx: TestSandbox,
  args: string[],
  opts: {timeoutMs?: number; max?: number} = {},
): Promise<{result: CliResult; reruns: number}> {
  let result = await sbx.run(args, {timeoutMs: opts.timeoutMs ?? 60_000})
  let reruns = 0
  while (result.code === 10 && reruns < (opts.max ?? 10)) {
    const command = result.json().error.details.command as string
    result = await sbx.run(argvOf(command), {timeoutMs: opts.timeoutMs ?? 60_000})
    reruns++
  }
  return {result, reruns}
}
