import {ALLOWANCES} from './contract-allow.js'
import {GAP_RULES, type GapCategory} from './fidelity-gaps.js'

/**
 * docs/fidelity.md: which documented answers (operation + status) of the published contract the
 * sandbox produces, counted by the contract check of a full `npm test` (test/helpers/contract-global.ts)
 * and rendered here. The document carries its own data (the produced statuses per operation), so a
 * unit test can re-render it and catch a stale file without running the suite.
 */

type Json = Record<string, any>
export type Produced = Record<string, {seen: number; valid: number; excusedBy?: string[]}>

export interface DocumentedAnswer {
  operation: string
  status: string
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
export const FIDELITY_PATH = 'docs/fidelity.md'

/** Every (operation, status) pair the contract documents, in document order. */
export function documentedAnswers(doc: Json): DocumentedAnswer[] {
  const out: DocumentedAnswer[] = []
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const m of METHODS)
      if (item[m])
        for (const status of Object.keys(item[m].responses ?? {}))
          out.push({operation: `${m.toUpperCase()} ${path}`, status})
  return out
}

const serverSide = (status: string) => status.startsWith('5')

/** Produced and matching the contract's schema for that status (bodies excused by an allowance do not count). */
const producedValid = (p: Produced, a: DocumentedAnswer) => (p[`${a.operation} ${a.status}`]?.valid ?? 0) > 0
/** Produced, but every body off the schema where an allowance decides (the spec wins there): the allowances. */
const offSchema = (p: Produced, a: DocumentedAnswer): string[] | undefined =>
  producedValid(p, a) ? undefined : p[`${a.operation} ${a.status}`]?.excusedBy

/** `N of M documented answers (5xx aside)`: the pairs produced with a schema-valid body, of those documented. */
export function countLine(doc: Json, produced: Produced): string {
  const counted = documentedAnswers(doc).filter((a) => !serverSide(a.status))
  const n = counted.filter((a) => producedValid(produced, a)).length
  return `${n} of ${counted.length} documented answers (5xx aside)`
}

/** Why a documented answer is not produced: the first rule that names it. */
export function gapOf(a: DocumentedAnswer): {category: GapCategory; why: string} {
  const rule = GAP_RULES.find((r) => r.status.test(a.status) && (!r.operation || r.operation.test(a.operation)))
  if (!rule) throw new Error(`no reason given for ${a.operation} ${a.status} (test/helpers/fidelity-gaps.ts)`)
  return {category: rule.category, why: rule.why}
}

export function renderFidelity(doc: Json, produced: Produced): string {
  const answers = documentedAnswers(doc)
  const byOp = new Map<string, DocumentedAnswer[]>()
  for (const a of answers) byOp.set(a.operation, [...(byOp.get(a.operation) ?? []), a])
  // Each gap's reason: the allowance that decides an off-schema answer, else the first gap rule that names it.
  const reasonOf = (a: DocumentedAnswer): {category: GapCategory; why: string} => {
    const off = offSchema(produced, a)
    if (!off) return gapOf(a)
    const why = off.map((id) => `\`${id}\` (${ALLOWANCES.find((x) => x.id === id)?.decidedBy ?? 'an allowance'})`)
    // An open allowance (contract-allow.ts "TO FIX"/"TO DECIDE") is the sandbox's to change, not the spec's word.
    return off.some((id) => id.startsWith('open-'))
      ? {category: 'not yet', why: `Produced off the schema, an open difference: ${why.join('; ')}.`}
      : {
          category: 'spec says otherwise',
          why: `Produced, the body differing where the spec decides: ${why.join('; ')}.`,
        }
  }
  const gaps = answers.filter((a) => !producedValid(produced, a))
  const reasons = new Map<string, {category: GapCategory; why: string; n: number}>()
  for (const a of gaps) {
    const g = reasonOf(a)
    const r = reasons.get(g.why) ?? {...g, n: 0}
    r.n++
    reasons.set(g.why, r)
  }
  const ids = new Map([...reasons.keys()].map((why, i) => [why, i + 1]))
  const counted = answers.filter((a) => !serverSide(a.status))
  const byCategory = (c: GapCategory) =>
    counted.filter((a) => !producedValid(produced, a) && reasonOf(a).category === c).length
  const lines = [
    countLine(doc, produced),
    '',
    '# Fidelity: the documented answers the local sandbox produces',
    '',
    '[README](../README.md) · [sandbox](sandbox.md) · [commands](commands.md)',
    '',
    'Generated, never edited by hand. The contract check of a complete test run (`npm test`, or',
    '`npx vitest run --project integration`, where every recorded answer comes from) writes what it counted to',
    '`.tmp/contract-coverage.json` (test/helpers/contract-global.ts), and `npm run fidelity` renders this file from',
    'it (build/fidelity.mjs). A complete run whose answers differ from this file fails, as a failing test would;',
    'answers no journey reaches on its own (conflicts, limits, locks) are asked for on purpose',
    '(test/integration/contract-answers*.test.ts), so no race decides them.',
    '',
    'Every answer the in-process sandbox gave during the suite is matched to its operation and status in the',
    "published contract (`../shared/spec/openapi.yaml`) and its body checked against that status's schema. A",
    'pair counts as produced when at least one body matched the schema as it was. A pair produced only',
    'with a body an allowance excuses (test/helpers/contract-allow.ts: where service-api.md decides otherwise,',
    'e.g. an error code §7 names that the contract enum lacks) is listed apart and not counted. 5xx answers are',
    'listed but not counted.',
    '',
    `Not produced (5xx aside): ${byCategory('unreachable in a sandbox')} unreachable in a sandbox, ${byCategory('spec says otherwise')} where the spec says otherwise, ${byCategory('not yet')} not yet.`,
    '',
    '| Operation | Produced | Produced off-schema (reason) | Not produced (reason) |',
    '| --------- | -------- | ---------------------------- | --------------------- |',
  ]
  for (const [op, list] of byOp) {
    const cell = (pick: (a: DocumentedAnswer) => boolean, show: (a: DocumentedAnswer) => string) =>
      list.filter(pick).map(show).join(', ')
    const valid = cell(
      (a) => producedValid(produced, a),
      (a) => a.status,
    )
    const off = cell(
      (a) => Boolean(offSchema(produced, a)),
      (a) => `${a.status} [${ids.get(reasonOf(a).why)}]`,
    )
    const missing = cell(
      (a) => !producedValid(produced, a) && !offSchema(produced, a),
      (a) => `${a.status} [${ids.get(reasonOf(a).why)}]`,
    )
    lines.push(`| \`${op}\` | ${valid} | ${off} | ${missing} |`)
  }
  lines.push('', '## Reasons', '', '| # | Kind | Pairs | Why |', '| - | ---- | ----- | --- |')
  for (const [why, r] of reasons) lines.push(`| ${ids.get(why)} | ${r.category} | ${r.n} | ${why} |`)
  return lines.join('\n') + '\n'
}

/**
 * The produced pairs a rendered docs/fidelity.md records: produced ones count 1 valid; those produced
 * as the spec says get back the allowance ids their reason names.
 */
export function producedFromDoc(text: string): Produced {
  const out: Produced = {}
  const allowancesOf = new Map<string, string[]>()
  for (const m of text.matchAll(/^\| (\d+) \| [a-z ]+ \| \d+ \| (Produced.*) \|$/gm))
    allowancesOf.set(
      m[1],
      [...m[2].matchAll(/`([a-z0-9-]+)` \(/g)].map((x) => x[1]),
    )
  const items = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
  for (const m of text.matchAll(/^\| `([A-Z]+ [^`]+)` \| ([^|]*) \| ([^|]*) \|/gm)) {
    for (const s of items(m[2])) out[`${m[1]} ${s}`] = {seen: 1, valid: 1}
    for (const s of items(m[3])) {
      const [, status, ref] = /^(\S+) \[(\d+)\]$/.exec(s) ?? []
      out[`${m[1]} ${status}`] = {seen: 1, valid: 0, excusedBy: allowancesOf.get(ref) ?? []}
    }
  }
  return out
}
