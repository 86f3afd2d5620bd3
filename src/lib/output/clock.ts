import {formatSpan} from '../duration.js'
import type {ClockAdvance, ClockView} from '../schemas/clock.js'
import type {Output} from './output.js'

const MODE: Record<ClockView['mode'], string> = {
  real: "real time (the machine's)",
  frozen: 'frozen',
  offset: 'ticking, offset from real time',
}

function signedSpan(ms: number): string {
  if (ms === 0) return '0s'
  return (ms < 0 ? '-' : '+') + formatSpan(Math.abs(ms))
}

export function renderClock(out: Output, c: ClockView): void {
  out.print(`${out.bold('Now')}        ${c.now}`)
  out.print(`Mode       ${MODE[c.mode]}`)
  out.print(`Machine    ${c.machineTime} (offset ${signedSpan(c.offsetMs)})`)
  out.print(`Jobs       ${c.pendingJobs} pending${c.nextJobAt ? `, next due ${c.nextJobAt}` : ''}`)
}

/** What an advance did: the jobs it ran and the events they emitted, in order, then the counts by kind and type. */
export function renderAdvance(out: Output, a: ClockAdvance): void {
  out.print(`${out.bold('Advanced')}   ${a.from} -> ${a.to}`)
  out.print(`Mode       ${MODE[a.clock.mode]}`)
  out.print(`Jobs run   ${a.jobs.length}${counts(a.summary.jobs)}`)
  for (const j of a.jobs) out.print(`  ${j.at}  ${j.kind}${j.outcome === 'ran' ? '' : `  (${j.outcome})`}`)
  out.print(`Events     ${a.events.length}${counts(a.summary.events)}`)
  for (const e of a.events) out.print(`  ${e.timestamp}  ${e.type}  ${out.dim(e.id)}`)
  out.print(`Pending    ${a.clock.pendingJobs} job(s)${a.clock.nextJobAt ? `, next due ${a.clock.nextJobAt}` : ''}`)
}

function counts(byName: Record<string, number>): string {
  const parts = Object.entries(byName).map(([k, n]) => `${k} ${n}`)
  return parts.length ? ` (${parts.join(', ')})` : ''
}
