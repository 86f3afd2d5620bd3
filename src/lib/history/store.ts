import {closeSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync} from 'node:fs'
import {join} from 'node:path'
import type {SentWrite} from '../api/outcome.js'
import {withDirLock} from '../fs-safe.js'
import {configDir} from '../paths.js'
import {currentEnv} from '../io.js'

/**
 * `svc history`: one JSON line per write a command sent, in `<config dir>/history/history.jsonl`
 * (0600, directory 0700). When a write would take the file past its bound it becomes
 * history.1.jsonl (replacing the one before), so the two files never hold more than twice the bound.
 */
export interface HistoryRecord extends SentWrite {
  /** Its number, for `svc history finish <n>`: one more than the record before, across rotations. */
  n: number
  time: string
  profile: string
  baseUrl: string
  /** The command line, secrets redacted. */
  command: string
  /** `svc history finish` of record n: a later record that settles an unknown one. */
  finishes?: number
}

const FILE = 'history.jsonl'
const OLD = 'history.1.jsonl'
/** The bound of the current file; SVC_HISTORY_MAX_BYTES changes it (tests, a machine that wants more). */
const MAX_BYTES = 256 * 1024

export function historyDir(env: NodeJS.ProcessEnv = currentEnv()): string {
  return join(configDir(env), 'history')
}

function maxBytes(env: NodeJS.ProcessEnv): number {
  const n = Number(env.SVC_HISTORY_MAX_BYTES)
  return Number.isInteger(n) && n >= 1024 ? n : MAX_BYTES
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw e
  }
}

function parseLines(text: string): HistoryRecord[] {
  const out: HistoryRecord[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      out.push(JSON.parse(line) as HistoryRecord)
    } catch {
      // a line cut short by a crash mid-write: the others still stand
    }
  }
  return out
}

/** Every kept record, oldest first. */
export function readHistory(env: NodeJS.ProcessEnv = currentEnv()): HistoryRecord[] {
  const dir = historyDir(env)
  return [...parseLines(readText(join(dir, OLD))), ...parseLines(readText(join(dir, FILE)))]
}

/** The size of a file, 0 when there is none. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw e
  }
}

/**
 * The number of a file's last record, from its last few KiB: appending costs the same whatever the
 * file's size (a record is well under TAIL bytes).
 */
function lastNumber(file: string): number | undefined {
  const size = sizeOf(file)
  if (!size) return undefined
  const TAIL = 16 * 1024
  const fd = openSync(file, 'r')
  try {
    const buf = Buffer.alloc(Math.min(size, TAIL))
    readSync(fd, buf, 0, buf.length, size - buf.length)
    return parseLines(buf.toString('utf8')).at(-1)?.n
  } finally {
    closeSync(fd)
  }
}

/** Appends the records (numbered on from the last one), rotating first when they would pass the bound; their numbers. */
export function appendHistory(
  records: Array<Omit<HistoryRecord, 'n'>>,
  env: NodeJS.ProcessEnv = currentEnv(),
): number[] {
  const dir = historyDir(env)
  return withDirLock(dir, () => {
    const file = join(dir, FILE)
    const size = sizeOf(file)
    let n = (size ? lastNumber(file) : undefined) ?? lastNumber(join(dir, OLD)) ?? 0
    const numbered = records.map((r) => ({n: ++n, ...r}))
    const text = numbered.map((r) => JSON.stringify(r) + '\n').join('')
    if (size && size + Buffer.byteLength(text) > maxBytes(env)) renameSync(file, join(dir, OLD))
    const fd = openSync(file, 'a', 0o600)
    try {
      writeSync(fd, text)
    } finally {
      closeSync(fd)
    }
    return numbered.map((r) => r.n)
  })
}

/** Removes both files; whether there was anything to remove. */
export function clearHistory(env: NodeJS.ProcessEnv = currentEnv()): boolean {
  const dir = historyDir(env)
  return withDirLock(dir, () => {
    let had = false
    for (const f of [FILE, OLD]) {
      try {
        had ||= statSync(join(dir, f)).isFile()
      } catch {
        // not there
      }
      rmSync(join(dir, f), {force: true})
    }
    return had
  })
}

/**
 * The later record that settled record n: `svc history finish n`, or the printed command re-run
 * (the same request with the same Idempotency-Key).
 */
export function finishedBy(records: HistoryRecord[], n: number): HistoryRecord | undefined {
  const r = records.find((x) => x.n === n)
  const same = (x: HistoryRecord) =>
    Boolean(r?.idempotencyKey) && x.idempotencyKey === r!.idempotencyKey && x.method === r!.method && x.path === r!.path
  return records.find((x) => x.n > n && (x.finishes === n || same(x)))
}
