import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {api} from '../helpers/money.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
const ids: string[] = []
beforeAll(async () => {
  sbx = await startSandbox()
  for (let i = 0; i < 230; i++)
    ids.push(
      (
        await api(sbx, 'POST', '/customers', {
          customerType: 'INDIVIDUAL',
          fullName: `Stream ${i}`,
          platformCustomerId: `stream-${i}`,
        })
      ).body.id,
    )
})
afterAll(async () => sbx.stop())

describe('--all streams page by page', () => {
  it('--output ndjson: one object per line, every customer once, in creation order, over several pages', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(['customers', 'list', '--all', '--limit', '50', '--output', 'ndjson'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((c) => c.id)).toEqual(ids)
    expect(sbx.requestCount() - before).toBe(5) // 230 / 50, rounded up
  })

  it('--json --all: one JSON document, the same shape as a single page, with every item', async () => {
    const r = await sbx.run(['customers', 'list', '--all', '--limit', '100', '--json'])
    expect(r.code).toBe(0)
    const doc = r.json()
    expect(doc).toEqual({data: expect.any(Array), hasMore: false, totalCount: 230})
    expect(doc.data.map((c: {id: string}) => c.id)).toEqual(ids)
    expect(doc.data[3]).toMatchObject({
      fullName: 'Stream 3',
      platformCustomerId: 'stream-3',
      customerType: 'INDIVIDUAL',
    })
  })

  it('--output csv --all: a header once, then a row per customer', async () => {
    const r = await sbx.run(['customers', 'list', '--all', '--output', 'csv', '--columns', 'id,platform-id'])
    expect(r.code, r.stderr).toBe(0)
    const rows = r.stdout.trimEnd().split('\r\n')
    expect(rows[0]).toBe('ID,PLATFORM ID')
    expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual(ids)
  })

  it('a page walk with keyset cursors sees every customer once even while new ones are created', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    let extra = 0
    for (;;) {
      const page = await api(sbx, 'GET', `/customers?limit=40${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.body.data.map((c: {id: string}) => c.id))
      if (extra < 3) await api(sbx, 'POST', '/customers', {customerType: 'INDIVIDUAL', fullName: `Late ${extra++}`})
      if (!page.body.hasMore) break
      cursor = page.body.nextCursor
    }
    expect(seen.slice(0, ids.length)).toEqual(ids)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.length).toBe(ids.length + 3)
  })
})
