import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {LogFile} from '../../../src/emulator/log-file.js'
import {tempDir} from '../../helpers/temp-dirs.js'

const line = (i: number) => `2026-06-01T00:00:00.000Z line ${String(i).padStart(4, '0')} ${'x'.repeat(60)}` // 92 bytes + newline
const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n')

describe('emulator.log rotated by size', () => {
  it('past maxBytes the log starts afresh, the full one becoming .1 then .2; the oldest past `keep` is deleted', () => {
    const dir = tempDir('svc-log-')
    const path = join(dir, 'emulator.log')
    const log = new LogFile(path, {maxBytes: 1000, keep: 2})
    for (let i = 0; i < 50; i++) log.append(line(i)) // 50 x 93 bytes: 10 lines a file
    for (const f of [path, `${path}.1`, `${path}.2`]) expect(statSync(f).size).toBeLessThanOrEqual(1000)
    expect(existsSync(`${path}.3`)).toBe(false)
    expect(lines(path)).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49].map(line))
    expect(lines(`${path}.1`)).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39].map(line))
    expect(lines(`${path}.2`)).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29].map(line))
  })

  it('counts what an earlier run left in the file; keep 0 keeps no old file', () => {
    const dir = tempDir('svc-log-')
    const path = join(dir, 'emulator.log')
    writeFileSync(path, line(0) + '\n'.padEnd(900, ' ') + '\n')
    const log = new LogFile(path, {maxBytes: 1000, keep: 0})
    log.append(line(1)) // 994 + 93 > 1000: a fresh file, the old one gone
    expect(lines(path)).toEqual([line(1)])
    expect(existsSync(`${path}.1`)).toBe(false)
  })

  it('a line longer than maxBytes is still written, alone in its file', () => {
    const dir = tempDir('svc-log-')
    const path = join(dir, 'emulator.log')
    const log = new LogFile(path, {maxBytes: 50, keep: 1})
    log.append('short')
    log.append('y'.repeat(200))
    log.append('after')
    expect(lines(`${path}.1`)).toEqual(['y'.repeat(200)])
    expect(lines(path)).toEqual(['after'])
  })
})
