// Issue 32 item 3, gh's and the AWS CLI's conventions: --query (JMESPath), the pager on a terminal
// only, `svc help environment`, `svc api --paginate`, and `svc flow init`.
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import {errorOf} from '../helpers/cli.js'
import {onTerminal} from '../helpers/pty.js'
import {svcInProcess} from '../helpers/run-command.js'
import {individualArgs} from '../helpers/kyc.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
let sbx: TestSandbox
const ids: string[] = []

beforeAll(async () => {
  sbx = await startSandbox()
  for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov']) {
    const c = await sbx.json(individualArgs(name, '--email', `${name.split(' ')[0].toLowerCase()}@example.com`))
    ids.push(c.id)
  }
})

describe('--query / -q (JMESPath over the JSON document)', () => {
  it('selects fields, prints a string bare and anything else as JSON, and implies --json', async () => {
    const one = await sbx.run(['customers', 'get', ids[0], '-q', 'id'])
    expect(one.code).toBe(0)
    expect(one.stdout).toBe(`${ids[0]}\n`)
    const list = await sbx.run(['customers', 'list', '--limit', '100', '--query', 'data[].id'])
    expect(list.code).toBe(0)
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining(ids))
    const shaped = await sbx.run([
      'customers',
      'list',
      '-q',
      `data[?fullName=='Grace Hopper'].{id: id, type: customerType}`,
    ])
    expect(JSON.parse(shaped.stdout)).toEqual([{id: ids[1], type: 'INDIVIDUAL'}])
  })

  it('runs over every page with --all (collected, since the expression needs the whole document)', async () => {
    const r = await sbx.run(['customers', 'list', '--all', '--limit', '2', '-q', 'length(data)'])
    expect(r.code).toBe(0)
    expect(Number(r.stdout)).toBeGreaterThanOrEqual(5)
  })

  it('refuses a bad expression with exit 2 before any request', async () => {
    const before = sbx.requestCount()
    const r = await sbx.run(['customers', 'list', '-q', 'data[?'])
    expect(r.code).toBe(2)
    expect(errorOf(r)).toMatchObject({code: 'USAGE', reason: expect.stringContaining('not a JMESPath expression')})
    expect(r.stderr).toContain('--query')
    expect(sbx.requestCount()).toBe(before)
  })

  it('refuses a misspelt field of a read with exit 2 and the field it meant', async () => {
    const r = await sbx.run(['customers', 'get', ids[0], '-q', 'customerTyp'])
    expect(r.code).toBe(2)
    expect(errorOf(r).reason).toContain('"customerTyp" (did you mean "customerType"?)')
    expect(r.stderr).toContain('did you mean "customerType"')
  })

  it('after a write, a misspelt field keeps the whole answer and warns: the outcome is not lost', async () => {
    const r = await sbx.run(individualArgs('Katherine Johnson', '--email', 'kj@example.com', '-q', 'idd'))
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.id).toMatch(/^Customer:/)
    expect(r.stderr).toContain('did you mean "id"')
    expect(r.stderr).toContain('The write was sent')
    expect((await sbx.json(['customers', 'get', doc.id])).fullName).toBe('Katherine Johnson')
  })
})

describe('svc api --paginate', () => {
  it('follows nextCursor and prints one merged document', async () => {
    const r = await sbx.json(['api', 'GET', '/customers', '--param', 'limit=2', '--paginate'])
    expect(r.hasMore).toBe(false)
    expect(r.data.map((c: {id: string}) => c.id)).toEqual(expect.arrayContaining(ids))
    expect(new Set(r.data.map((c: {id: string}) => c.id)).size).toBe(r.data.length)
    expect(r.totalCount).toBe(r.data.length)
  })

  it('writes NDJSON, one item per line, with --output ndjson', async () => {
    const r = await sbx.run(['api', 'GET', '/customers', '--param', 'limit=2', '--paginate', '--output', 'ndjson'])
    expect(r.code).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((c) => c.id)).toEqual(expect.arrayContaining(ids))
    const merged = await sbx.json(['api', 'GET', '/customers', '--paginate'])
    expect(lines.length).toBe(merged.data.length)
  })

  it('refuses --paginate on a write and ndjson without it, before any request', async () => {
    const before = sbx.requestCount()
    const post = await sbx.run(['api', 'POST', '/customers', '--paginate', '--data', '{}'])
    expect(post.code).toBe(2)
    expect(post.stderr).toContain('--paginate follows the pages of a GET list')
    const nd = await sbx.run(['api', 'GET', '/customers', '--output', 'ndjson'])
    expect(nd.code).toBe(2)
    expect(nd.stderr).toContain('--output ndjson goes with --paginate')
    expect(sbx.requestCount()).toBe(before)
  })

  it('--param sets query parameters (the old --query key=value) and a bad one is named', async () => {
    const r = await sbx.json(['api', 'GET', '/customers', '--param', 'limit=1'])
    expect(r.data).toHaveLength(1)
    const bad = await sbx.run(['api', 'GET', '/customers', '--param', 'limit'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--param "limit" must be key=value')
  })
})

describe('the pager', () => {
  it('takes a list on a terminal (SVC_PAGER), never a pipe, --json or an empty pager', async () => {
    const file = join(tempDir('svc-pager-'), 'paged.txt')
    const paged = await svcInProcess(['customers', 'list'], {
      env: {...sbx.env, SVC_PAGER: `cat > ${file}`},
      stdoutIsTTY: true,
      columns: 120,
    })
    expect(paged.code).toBe(0)
    expect(paged.stdout).toBe('')
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('Grace Hopper')
    // Laid out for the terminal, not tab-separated as for a pipe.
    expect(text).not.toContain('\t')

    const piped = await sbx.run(['customers', 'list'], {env: {SVC_PAGER: `cat > ${file}.2`}})
    expect(piped.stdout).toContain('Grace Hopper')
    expect(existsSync(`${file}.2`)).toBe(false)

    const json = await svcInProcess(['customers', 'list', '--json'], {
      env: {...sbx.env, SVC_PAGER: `cat > ${file}.3`},
      stdoutIsTTY: true,
    })
    expect(JSON.parse(json.stdout).data.length).toBeGreaterThanOrEqual(5)
    expect(existsSync(`${file}.3`)).toBe(false)

    const off = await svcInProcess(['customers', 'list'], {env: {...sbx.env, SVC_PAGER: ''}, stdoutIsTTY: true})
    expect(off.stdout).toContain('Grace Hopper')
  })

  it('pages help on a terminal, and not when piped', async () => {
    const env = {...sbx.env, SVC_PAGER: "sed 's/^/PAGED: /'"}
    const tty = await onTerminal(['customers', 'create', '--help'], {env})
    expect(tty.code).toBe(0)
    expect(tty.out).toContain('PAGED: USAGE')
    const piped = await svcInProcess(['customers', 'create', '--help'], {env})
    expect(piped.stdout).toContain('USAGE')
    expect(piped.stdout).not.toContain('PAGED:')
  })
})

describe('svc help environment', () => {
  it('lists every variable svc reads, as a table and as JSON', async () => {
    const r = await svcInProcess(['help', 'environment'], {env: {...sbx.env, COLUMNS: '120'}})
    expect(r.code).toBe(0)
    for (const name of ['SVC_PROFILE', 'SVC_CLIENT_SECRET', 'SVC_PAGER', 'HTTPS_PROXY', 'NO_COLOR'])
      expect(r.stdout).toContain(name)
    const json = await svcInProcess(['help', 'environment', '--json'], {env: sbx.env})
    const names = JSON.parse(json.stdout).variables.map((v: {name: string}) => v.name)
    expect(names).toContain('SVC_CA_FILE')
  })
})

describe('svc flow init', () => {
  it('copies the shipped flows and their documents, refuses to overwrite without --force', async () => {
    const dir = join(tempDir('svc-flow-init-'), 'flows')
    const first = await sbx.run(['flow', 'init', dir, '--json'])
    expect(first.code).toBe(0)
    const shipped = readdirSync(join(root, 'flows')).filter((f) => f.endsWith('.yaml'))
    expect(first.json().files).toEqual(expect.arrayContaining([...shipped, 'fixtures/passport.jpg']))
    for (const f of shipped)
      expect(readFileSync(join(dir, f), 'utf8')).toBe(readFileSync(join(root, 'flows', f), 'utf8'))

    const again = await sbx.run(['flow', 'init', dir])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('onboarding-individual.yaml')
    expect(again.stderr).toContain('--force')
    expect((await sbx.run(['flow', 'init', dir, '--force'])).code).toBe(0)
  })
})
