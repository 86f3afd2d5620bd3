import {existsSync, mkdirSync, mkdtempSync, rmSync, statSync, truncateSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {Db, DB_FILE, OPEN_MARKER} from '../../../src/emulator/store/db.js'
import {StoreDamagedError} from '../../../src/emulator/store/sqlite.js'

const home = mkdtempSync(join(tmpdir(), 'svc-open-'))
afterAll(() => rmSync(home, {recursive: true, force: true}))

async function filled(name: string): Promise<string> {
  const dir = join(home, name)
  mkdirSync(dir)
  const db = Db.open(dir)
  await db.unit(() => {
    for (let i = 0; i < 500; i++)
      db.put('customers', `Customer:${i}`, {
        id: `Customer:${i}`,
        fullName: 'x'.repeat(300),
        currencies: ['USD'],
        isDeleted: false,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      })
  })
  await db.close()
  return dir
}

describe('the check at open', () => {
  it('a clean close removes the open marker; the next open checks the header only, and leaves the marker while open', async () => {
    const dir = await filled('clean')
    expect(existsSync(join(dir, OPEN_MARKER))).toBe(false)
    const lines: string[] = []
    const db = Db.open(dir, (l) => lines.push(l))
    expect(db.openCheck).toBe('header')
    expect(existsSync(join(dir, OPEN_MARKER))).toBe(true)
    expect(lines.filter((l) => /integrity check/.test(l))).toEqual([])
    await db.close()
  })

  it('an open marker left behind (a killed process) makes the next open run quick_check and say so', async () => {
    const dir = await filled('unclean')
    const first = Db.open(dir)
    // no close: the process "died" here; a second open sees its marker
    const lines: string[] = []
    const second = Db.open(dir, (l) => lines.push(l))
    expect(second.openCheck).toBe('full')
    expect(lines.join('\n')).toMatch(/unclean shutdown: ran the full integrity check \(quick_check\)/)
    await second.close()
    await first.close()
  })

  it('a file shorter than its header says (a truncated copy) is refused even after a clean close', async () => {
    const dir = await filled('truncated')
    const file = join(dir, DB_FILE)
    truncateSync(file, Math.floor(statSync(file).size / 2))
    expect(() => Db.open(dir)).toThrow(StoreDamagedError)
  })
})
