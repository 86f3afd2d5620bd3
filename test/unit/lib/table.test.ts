import {describe, expect, it} from 'vitest'
import {Output} from '../../../src/lib/output/output.js'
import {type Column, ListWriter, fitColumns, listView} from '../../../src/lib/output/table.js'

type Row = {id: string; name: string; status: string; note: string}
const columns: Array<Column<Row>> = [
  {key: 'id', header: 'ID', get: (r) => r.id, noTruncate: true},
  {key: 'name', header: 'NAME', get: (r) => r.name, priority: 1},
  {key: 'status', header: 'STATUS', get: (r) => r.status, priority: 2, noTruncate: true},
  {key: 'note', header: 'NOTE', get: (r) => r.note, priority: 9},
]
const rows: Row[] = Array.from({length: 5}, (_, i) => ({
  id: `Customer:0b6f3c2e-9a1c-4c55-8d2e-00000000000${i}`,
  name: `A rather long legal name number ${i}, with a comma and "quotes"`,
  status: 'APPROVED',
  note: 'x'.repeat(70),
}))

function capture(tty: boolean) {
  let stdout = ''
  let stderr = ''
  const out = new Output({
    json: false,
    color: false,
    stdout: Object.assign({write: (s: string) => ((stdout += s), true)}, {isTTY: tty}) as never,
    stderr: {write: (s: string) => ((stderr += s), true)} as never,
  })
  return {
    out,
    get stdout() {
      return stdout
    },
    get stderr() {
      return stderr
    },
  }
}

describe('tables', () => {
  it('fit 80 columns: columns by priority, long text cut with an ellipsis, ids whole, no row separators', async () => {
    const c = capture(true)
    const w = new ListWriter(c.out, columns, listView({}, columns), 80)
    w.rows(rows)
    await w.end()
    const lines = c.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(6) // header + 5 rows, nothing between them
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80)
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS$/) // NOTE (lowest priority) dropped
    expect(lines[1]).toContain(rows[0].id)
    expect(lines[1]).toMatch(/A rather long.*…\s+APPROVED$/)
    expect(c.stderr).toBe('(--wide shows 1 more: note)\n')
  })

  it('--wide shows every column in full; --columns picks and orders them', async () => {
    const wide = capture(true)
    const w = new ListWriter(wide.out, columns, listView({wide: true}, columns), 80)
    w.rows(rows)
    await w.end()
    expect(wide.stdout.split('\n')[1]).toContain(rows[0].name)
    expect(wide.stdout.split('\n')[0]).toMatch(/NOTE$/)

    const picked = capture(true)
    const p = new ListWriter(picked.out, columns, listView({columns: 'status,id'}, columns), 80)
    p.rows(rows)
    await p.end()
    expect(picked.stdout.split('\n')[0]).toMatch(/^STATUS\s+ID$/)
  })

  it('fitColumns never exceeds the width when something can give', () => {
    for (const width of [40, 60, 80, 100, 120]) {
      const cells = rows.map((r) => columns.map((c) => String(c.get(r))))
      const {widths, keep} = fitColumns(columns, cells, width)
      expect(widths.reduce((a, b) => a + b, 0) + 2 * (keep.length - 1)).toBeLessThanOrEqual(
        Math.max(width, rows[0].id.length),
      )
    }
  })

  it('csv quotes commas and quotes (RFC 4180) and defuses formulas; tsv when piped', async () => {
    const csv = capture(false)
    const w = new ListWriter(csv.out, columns, listView({output: 'csv'}, columns))
    w.rows([
      {...rows[0], note: '=HYPERLINK("x")'},
      {...rows[1], name: 'Plain', note: '-'},
    ])
    await w.end()
    expect(csv.stdout).toBe(
      `ID,NAME,STATUS,NOTE\r\n${rows[0].id},"A rather long legal name number 0, with a comma and ""quotes""",APPROVED,"'=HYPERLINK(""x"")"\r\n${rows[1].id},Plain,APPROVED,-\r\n`,
    )

    const tsv = capture(false)
    const t = new ListWriter(tsv.out, columns, listView({}, columns))
    t.rows(rows.slice(0, 1))
    await t.end()
    expect(tsv.stdout).toBe(`ID\tNAME\tSTATUS\tNOTE\n${rows[0].id}\t${rows[0].name}\tAPPROVED\t${rows[0].note}\n`)
  })

  it('ndjson writes each row as it comes (streaming-ready)', () => {
    const c = capture(false)
    const w = new ListWriter(c.out, columns, listView({output: 'ndjson'}, columns))
    w.rows(rows.slice(0, 1))
    expect(c.stdout).toBe(JSON.stringify(rows[0]) + '\n')
    w.rows(rows.slice(1, 2))
    expect(c.stdout.split('\n')).toHaveLength(3)
  })

  it('an unknown --columns name is a usage error naming the choices', () => {
    expect(() => listView({columns: 'id,bogus'}, columns)).toThrow(/unknown column bogus/)
  })
})

describe('short forms and empty lists', () => {
  type Tx = {id: string; type: string; amount: string}
  const txColumns: Array<Column<Tx>> = [
    {key: 'id', header: 'ID', get: (r) => r.id, noTruncate: true},
    {
      key: 'type',
      header: 'TYPE',
      get: (r) => r.type,
      short: (r) => (r.type === 'INCOMING' ? 'IN' : 'OUT'),
      priority: 1,
      noTruncate: true,
    },
    {key: 'amount', header: 'AMOUNT', get: (r) => r.amount, priority: 2, noTruncate: true},
  ]
  const txs: Tx[] = [{id: 'Transaction:0b6f3c2e-9a1c-4c55-8d2e-000000000001', type: 'INCOMING', amount: 'USD 2,500.00'}]

  it('a short form is used only when the full forms do not fit', async () => {
    const roomy = capture(true)
    const w = new ListWriter(roomy.out, txColumns, listView({}, txColumns), 80)
    w.rows(txs)
    await w.end()
    expect(roomy.stdout.split('\n')[1]).toMatch(/\s+INCOMING\s+USD 2,500\.00$/)
    const narrow = capture(true)
    const n = new ListWriter(narrow.out, txColumns, listView({}, txColumns), 70) // 48 + 2 + 8 + 2 + 12 = 72 > 70 >= 48 + 2 + 4 + 2 + 12
    n.rows(txs)
    await n.end()
    expect(narrow.stdout.split('\n')[1]).toMatch(/\s+IN\s+USD 2,500\.00$/)
    expect(narrow.stderr).toBe('')
  })

  it('an empty list on a terminal: "No <what>." and the hint on stderr, no header; piped: the header only', async () => {
    const tty = capture(true)
    const w = new ListWriter(tty.out, txColumns, listView({}, txColumns, {what: 'transactions', hint: 'Send one.'}), 80)
    await w.end()
    expect([tty.stdout, tty.stderr]).toEqual(['', 'No transactions.\nSend one.\n'])
    const piped = capture(false)
    const p = new ListWriter(piped.out, txColumns, listView({}, txColumns, {what: 'transactions'}), 80)
    await p.end()
    expect([piped.stdout, piped.stderr]).toEqual(['ID\tTYPE\tAMOUNT\n', ''])
  })
})
