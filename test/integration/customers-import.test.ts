import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ProgressBar} from '../../src/lib/workflows/customer/import.js'
import {activeByPlatformId} from '../../src/emulator/store/customers.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {hasScript, onTerminal} from '../helpers/pty.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

let sbx: TestSandbox
const dir = tempDir('svc-import-')
const HEADER =
  'platformCustomerId,customerType,fullName,birthDate,email,addressLine1,city,state,postalCode,country,businessLegalName,businessTaxId,businessIncorporatedOn,currencies'

/** 1,000 rows; every 50th has a bad birth date and email, every 125th (offset) lacks its platformCustomerId, one business lacks its tax id. */
function thousandRows(): {csv: string; bad: Map<number, string[]>} {
  const lines = [HEADER]
  const bad = new Map<number, string[]>()
  for (let i = 1; i <= 1000; i++) {
    const id = `imp-${String(i).padStart(4, '0')}`
    if (i % 50 === 0) {
      lines.push(`${id},INDIVIDUAL,Bad Row ${i},1990-13-45,not-an-email,1 Main St,Austin,TX,78701,US,,,,USD`)
      bad.set(i, ['birthDate', 'email'])
    } else if (i % 125 === 7) {
      lines.push(`,INDIVIDUAL,"No Id, ${i}",1990-01-15,,1 Main St,Austin,TX,78701,US,,,,`)
      bad.set(i, ['platformCustomerId'])
    } else if (i === 999) {
      lines.push(`${id},BUSINESS,,,,400 Commerce Way,Austin,TX,78701,US,Acme ${i} LLC,,2010-05-01,`)
      bad.set(i, ['businessTaxId'])
    } else lines.push(`${id},INDIVIDUAL,Person ${i},1990-01-15,p${i}@example.com,1 Main St,Austin,TX,78701,us,,,,USD`)
  }
  return {csv: lines.join('\r\n') + '\r\n', bad}
}

beforeAll(async () => {
  sbx = await startSandbox({bulkImportChunkDelayMs: 0})
})
afterAll(async () => sbx.stop())

describe('svc customers import', () => {
  it('imports 1,000 rows in the background: each bad row reported with its columns, the rest created once; a re-run creates nothing', async () => {
    const {csv, bad} = thousandRows()
    const file = join(dir, 'thousand.csv')
    writeFileSync(file, csv)
    const before = sbx.emu.db.count('customers')
    const r = await svc(['customers', 'import', file, '--wait', '--json'], {env: sbx.env, timeoutMs: 120_000})
    expect(r.code, r.stderr).toBe(0)
    const job = r.json()
    expect(job.status).toBe('COMPLETED')
    expect(job.progress).toEqual({total: 1000, processed: 1000, successful: 1000 - bad.size, failed: bad.size})
    expect(job.errors).toHaveLength(bad.size)
    for (const e of job.errors) {
      const fields = e.details.errors.map((x: {field: string}) => x.field).sort()
      expect(fields, JSON.stringify(e)).toEqual([...bad.get(e.details.row)!].sort())
      expect(e.code).toBe('INVALID_INPUT')
    }
    expect(job.errors.find((e: any) => e.details.row === 50).correlationId).toBe('imp-0050')
    expect(job.errors.find((e: any) => e.details.row === 7).correlationId).toBe('row 7')
    expect(r.stderr).toMatch(/customer\(s\) created, \d+ row\(s\) refused/)
    expect(sbx.emu.db.count('customers') - before).toBe(1000 - bad.size)
    const one = activeByPlatformId(sbx.emu.db, 'imp-0001')!
    expect(one).toMatchObject({
      customerType: 'INDIVIDUAL',
      fullName: 'Person 1',
      address: {country: 'US', line1: '1 Main St'},
    })
    expect(activeByPlatformId(sbx.emu.db, 'imp-0050')).toBeUndefined()

    // The same file again: every valid row now names its existing customer; nothing is created twice.
    const again = await svc(['customers', 'import', file, '--wait', '--json'], {env: sbx.env, timeoutMs: 120_000})
    expect(again.code).toBe(1)
    const doc = again.json().error
    expect(doc.code).toBe('BULK_IMPORT_FAILED')
    expect(doc.details).toMatchObject({status: 'FAILED', progress: {successful: 0, failed: 1000}, moreErrors: 980})
    const status = await svc(['customers', 'import-status', doc.details.jobId, '--json'], {env: sbx.env})
    expect(status.code).toBe(0)
    const conflict = status.json().errors.find((e: any) => e.correlationId === 'imp-0001')
    expect(conflict).toMatchObject({code: 'CONFLICT', details: {existingCustomerId: one.id}})
    expect(sbx.emu.db.count('customers') - before).toBe(1000 - bad.size)
  }, 180_000)

  it('without --wait prints the job id; import-status shows it; the job webhook is emitted', async () => {
    const file = join(dir, 'two.csv')
    writeFileSync(
      file,
      'platformCustomerId,customerType,fullName\nsolo-1,INDIVIDUAL,Solo One\nsolo-2,individual,Solo Two\n',
    )
    const r = await svc(['customers', 'import', file], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    const jobId = r.stdout.trim()
    expect(jobId).toMatch(/^Job:/)
    const s = await svc(['customers', 'import-status', jobId, '--wait', '--json'], {env: sbx.env})
    expect(s.code, s.stderr).toBe(0)
    expect(s.json()).toMatchObject({id: jobId, status: 'COMPLETED', progress: {total: 2, successful: 2, failed: 0}})
    expect(activeByPlatformId(sbx.emu.db, 'solo-2')?.customerType).toBe('INDIVIDUAL')
    const events = sbx.emu.db.all<{event: {type: string; data: {id: string}}}>('events').map((e) => e.event)
    expect(events.find((e) => e.data.id === jobId)?.type).toBe('BULK_UPLOAD.COMPLETED')
    const human = await svc(['customers', 'import-status', jobId], {env: sbx.env})
    expect(human.stdout).toMatch(/Status\s+COMPLETED/)
  })

  it('--dry-run describes the upload and sends nothing', async () => {
    const file = join(dir, 'dry.csv')
    writeFileSync(file, 'platformCustomerId,customerType\ndry-1,INDIVIDUAL\n')
    const before = sbx.requestCount()
    const r = await svc(['customers', 'import', file, '--dry-run', '--json'], {env: sbx.env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().request).toMatchObject({
      method: 'POST',
      url: expect.stringMatching(/\/customers\/bulk\/csv$/),
      headers: {'content-type': 'multipart/form-data'},
      // The file's SHA-256: a plan (svc mcp) is bound to the bytes, not only to the name and size.
      body: {
        file: 'dry.csv (text/csv, 49 bytes, sha256 1a23bd47d030c2c221e6f0f2b8608a24c3231fadae21cea0961d2bcf838c1feb)',
      },
    })
    expect(sbx.requestCount()).toBe(before)
  })

  it('an unknown job is exit 5', async () => {
    const r = await svc(['customers', 'import-status', 'Job:00000000-0000-0000-0000-000000000000', '--json'], {
      env: sbx.env,
    })
    expect(r.code).toBe(5)
    expect(r.json().error.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND')
  })

  it.each([
    ['a missing file', 'missing.csv', undefined, /cannot read/],
    ['an empty file', 'empty.csv', '', /empty/],
    [
      'a header without required columns',
      'nohead.csv',
      'fullName,email\nAda,a@b.co\n',
      /missing required column\(s\) platformCustomerId, customerType/,
    ],
    [
      'an unknown column',
      'unknown.csv',
      'platformCustomerId,customerType,shoeSize\nx,INDIVIDUAL,9\n',
      /unknown column\(s\) shoeSize/,
    ],
    ['a ragged row', 'ragged.csv', 'platformCustomerId,customerType\nx,INDIVIDUAL,extra\n', /row 1 has 3 cells/],
    ['an unclosed quote', 'quote.csv', 'platformCustomerId,customerType\n"x,INDIVIDUAL\n', /never closed/],
  ])('refuses %s before sending (exit 2)', async (_name, name, content, message) => {
    const file = join(dir, name)
    if (content !== undefined) writeFileSync(file, content)
    const before = sbx.requestCount()
    const r = await svc(['customers', 'import', file, '--json'], {env: sbx.env})
    expect(r.code, r.stdout).toBe(2)
    const errors = r.json().error.details.errors as Array<{field: string; message: string}>
    expect(
      errors.some((e) => e.field.startsWith('file') && message.test(e.message)),
      JSON.stringify(errors),
    ).toBe(true)
    expect(sbx.requestCount()).toBe(before)
  })

  it('a bad job id is exit 2 with nothing sent', async () => {
    const before = sbx.requestCount()
    const r = await svc(['customers', 'import-status', 'Customer:abc', '--json'], {env: sbx.env})
    expect(r.code).toBe(2)
    expect(sbx.requestCount()).toBe(before)
  })

  it.skipIf(!hasScript)(
    'on a terminal, --wait draws a progress bar on stderr; off a terminal it draws none',
    async () => {
      const file = join(dir, 'tty.csv')
      writeFileSync(
        file,
        [
          'platformCustomerId,customerType,fullName',
          ...Array.from({length: 300}, (_, i) => `tty-${i},INDIVIDUAL,Tty ${i}`),
        ].join('\n'),
      )
      const shown = await onTerminal(['customers', 'import', file, '--wait'], {env: sbx.env})
      expect(shown.code, shown.out).toBe(0)
      expect(shown.raw).toMatch(/\r\x1b\[2K\[#{30}\] 300\/300/)
      expect(shown.out).toMatch(/Status\s+COMPLETED/)
      const piped = await svc(['customers', 'import-status', shown.out.match(/Job:[0-9a-f-]+/)![0], '--wait'], {
        env: sbx.env,
      })
      expect(piped.stderr).not.toContain('\x1b[2K')
    },
  )

  it('draws a progress bar', () => {
    expect(ProgressBar.line({total: 1000, processed: 500, successful: 497, failed: 3}, 10)).toBe(
      '[#####.....] 500/1000 · 3 failed',
    )
    let written = ''
    const bar = new ProgressBar({isTTY: true, write: (s: string) => ((written += s), true)} as never)
    bar.draw({total: 4, processed: 4, successful: 4, failed: 0})
    expect(written).toContain('4/4')
    const quiet = new ProgressBar({
      isTTY: false,
      write: () => {
        throw new Error('wrote off a TTY')
      },
    } as never)
    quiet.draw({total: 1, processed: 0, successful: 0, failed: 0})
  })
})
