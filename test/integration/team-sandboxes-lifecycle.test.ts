import {existsSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'
import {as, http, removeDir, startMulti, type Creds} from '../helpers/multi-sandbox.js'
import {kill9, serve, started} from '../helpers/process-sandbox.js'
import {eventually} from '../helpers/wait.js'

const home = mkdtempSync(join(tmpdir(), 'svc-multi-life-'))
afterAll(() => {
  for (const c of started) c.kill('SIGKILL')
  rmSync(home, {recursive: true, force: true})
})

const customer = (pcid: string) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: pcid,
  fullName: `Life ${pcid}`,
  currencies: ['USD'],
})

describe('lifecycle: idle sandboxes are closed and reopen on their next request', () => {
  it('a closed sandbox holds no handle, lock or WAL, and its next request reopens it with its data', async () => {
    const t = await startMulti()
    try {
      const a = await t.create('idle-a')
      const made = await as(a)('POST', '/customers', customer('kept'))
      expect(made.status).toBe(201)
      const dir = join(t.dir, 'sandboxes', 'idle-a')
      const before = await t.multi.tenants.open(t.multi.tenants.get('idle-a')!)
      expect(existsSync(join(dir, 'sandbox.db.open'))).toBe(true)

      expect((await t.multi.sweep(0)).sort()).toEqual(['default', 'idle-a'])
      expect(t.multi.tenants.openCount()).toBe(0)
      // Closed cleanly: database handle, its open marker and lock gone, the WAL folded in, scheduler stopped.
      expect(existsSync(join(dir, 'sandbox.db.open'))).toBe(false)
      expect(existsSync(join(dir, 'serve.lock'))).toBe(false)
      expect(existsSync(join(dir, 'sandbox.db-wal')) ? statSync(join(dir, 'sandbox.db-wal')).size : 0).toBe(0)
      await expect(before.db.unit(() => 1)).rejects.toThrow(/closed/)
      const listed = (await t.admin('GET', '/idle-a')).body
      expect(listed).toMatchObject({name: 'idle-a', open: false})
      expect(Date.parse(listed.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000)

      const again = await as(a)('GET', `/customers/${made.body.id}`)
      expect(again.status).toBe(200)
      expect(again.body.platformCustomerId).toBe('kept')
      expect((await t.admin('GET', '/idle-a')).body.open).toBe(true)
      expect(t.multi.tenants.openCount()).toBe(1) // only the one asked for
    } finally {
      await t.close()
      removeDir(t.dir)
    }
  })

  it('the server closes idle sandboxes by itself, and a restarted server knows every sandbox and its last use', async () => {
    const t = await startMulti({idleMs: 100})
    const a = await t.create('timer-a')
    expect((await as(a)('POST', '/customers', customer('t1'))).status).toBe(201)
    await eventually(() => t.multi.tenants.openCount() === 0, 5_000)
    expect((await as(a)('GET', '/customers')).body.totalCount).toBe(1)
    const lastUse = (await t.admin('GET', '/timer-a')).body.lastUsedAt
    await t.close()
    const again = await startMulti({dir: t.dir})
    try {
      const list = (await again.admin('GET', '')).body.data
      expect(list.map((s: {name: string}) => s.name)).toEqual(['default', 'timer-a'])
      expect(list[1]).toMatchObject({tokenId: a.tokenId, lastUsedAt: lastUse, open: false})
      expect((await as({...a, url: again.main.url})('GET', '/customers')).body.totalCount).toBe(1)
    } finally {
      await again.close()
      removeDir(t.dir)
    }
  })
})

describe('lifecycle: kill -9 of the server loses no acknowledged write in any sandbox', () => {
  it('after each kill, every acknowledged create is in its own sandbox and in no other', async () => {
    const dataDir = join(home, 'killed')
    const first = await serve(home, dataDir, ['--multi'])
    const adminSecret = (first.ready as unknown as {adminSecret: string}).adminSecret
    const admin = {tokenId: 'admin', clientSecret: adminSecret}
    const names = ['k-a', 'k-b', 'k-c']
    const creds: Record<string, Creds> = {}
    for (const name of names) {
      const r = await http(`${first.ready.url}/sandbox/sandboxes`, admin, 'POST', {name})
      expect(r.status).toBe(201)
      creds[name] = r.body
    }
    const acked: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]))
    let child = first.child
    let url = first.ready.url
    for (let round = 0; round < 3; round++) {
      let dead = false
      const writers = names.flatMap((name) =>
        [0, 1].map(async (w) => {
          // By credentials on the server's URL: the sandbox each write lands in is the one its credentials pick.
          const api = as(creds[name], url)
          for (let i = 0; !dead; i++) {
            const pcid = `${name}-r${round}-w${w}-${i}`
            try {
              if ((await api('POST', '/customers', customer(pcid))).status === 201) acked[name].push(pcid)
            } catch {
              // in flight when the process died: nothing was promised
            }
          }
        }),
      )
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 300)))
      dead = true
      await kill9(child)
      await Promise.all(writers)
      const next = await serve(home, dataDir, ['--multi'])
      expect((next.ready as unknown as {adminSecret: string}).adminSecret).toBe(adminSecret)
      ;[child, url] = [next.child, next.ready.url]
      for (const name of names) {
        const pcids = new Set<string>()
        for (let cursor = ''; ;) {
          const page = await as(creds[name], url)('GET', `/customers?limit=100${cursor && `&cursor=${cursor}`}`)
          expect(page.status).toBe(200)
          for (const c of page.body.data) pcids.add(c.platformCustomerId)
          if (!page.body.hasMore) break
          cursor = encodeURIComponent(page.body.nextCursor)
        }
        for (const pcid of acked[name]) expect(pcids.has(pcid), `${name}: acknowledged ${pcid}`).toBe(true)
        for (const pcid of pcids) expect(String(pcid).startsWith(`${name}-`), `${pcid} in ${name}`).toBe(true)
      }
    }
    expect(names.every((n) => acked[n].length > 10)).toBe(true)
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
  }, 120_000)
})

describe('backward compatible', () => {
  const stop = async (child: import('node:child_process').ChildProcess) => {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }

  it('an existing data dir becomes the default sandbox of a --multi server (same URL, credentials, data), and serves alone again after', async () => {
    const dir = join(home, 'compat')
    const single = await serve(home, dir)
    const c = await as(single.ready)('POST', '/customers', customer('from-single'))
    expect(c.status).toBe(201)
    await stop(single.child)

    const multi = await serve(home, dir, ['--multi'])
    expect(multi.ready).toMatchObject({tokenId: single.ready.tokenId, clientSecret: single.ready.clientSecret})
    expect(new URL(multi.ready.url).pathname).toBe('/2025-10-13')
    expect((await as(multi.ready)('GET', `/customers/${c.body.id}`)).body.platformCustomerId).toBe('from-single')
    const admin = {tokenId: 'admin', clientSecret: (multi.ready as unknown as {adminSecret: string}).adminSecret}
    const list = await http(`${multi.ready.url}/sandbox/sandboxes`, admin, 'GET')
    expect(list.body.data.map((s: {name: string; tokenId: string}) => [s.name, s.tokenId])).toEqual([
      ['default', single.ready.tokenId],
    ])
    expect((await http(`${multi.ready.url}/sandbox/sandboxes`, admin, 'POST', {name: 'extra'})).status).toBe(201)
    await stop(multi.child)

    // Without --multi nothing changes: no admin secret in the ready line, no admin routes, the same sandbox.
    const again = await serve(home, dir)
    expect(again.ready).not.toHaveProperty('adminSecret')
    expect((await as(again.ready)('GET', `/customers/${c.body.id}`)).status).toBe(200)
    expect((await http(`${again.ready.url}/sandbox/sandboxes`, admin, 'GET')).status).toBe(401)
    await stop(again.child)
  }, 60_000)

  it('svc sandbox create refuses bad input before any request, naming it; the secret is never taken from argv', async () => {
    const env = {
      HOME: home,
      SVC_CONFIG_DIR: join(home, 'cfg-bad'),
      SVC_SANDBOX_ADMIN_SECRET: 'sk_admin_x',
      NO_COLOR: '1',
    }
    // Nothing listens on this URL: a request would fail as a network error (exit 9), not a usage error.
    const nowhere = ['--base-url', 'http://127.0.0.1:9/2025-10-13', '--json']
    const bad = await svcInProcess(['sandbox', 'create', '../x', ...nowhere], {env})
    expect(bad.code).toBe(2)
    expect(bad.json().error.details.errors).toEqual([
      {field: 'NAME', message: 'must be letters, digits, - and _, starting with a letter or digit (up to 63)'},
    ])
    const from = await svcInProcess(['sandbox', 'create', 'ok', '--from', 'a/b', ...nowhere], {env})
    expect(from.code).toBe(2)
    expect(from.json().error.details.errors[0].field).toBe('--from')
    const missing = await svcInProcess(
      ['sandbox', 'create', 'ok', '--from-snapshot', join(home, 'none.db'), ...nowhere],
      {env},
    )
    expect(missing.code).toBe(2)
    expect(missing.json().error.details.errors[0].field).toBe('--from-snapshot')
    const both = await svcInProcess(['sandbox', 'create', 'ok', '--from', 'a', '--from-snapshot', 'f.db', ...nowhere], {
      env,
    })
    expect(both.code).toBe(2)
    const noSecret = await svcInProcess(['sandbox', 'list', ...nowhere], {
      env: {...env, SVC_SANDBOX_ADMIN_SECRET: undefined},
    })
    expect(noSecret.code).toBe(2)
    expect(noSecret.json().error.hint).toContain('SVC_SANDBOX_ADMIN_SECRET')
    const onArgv = await svcInProcess(['sandbox', 'list', '--admin-secret', 'sk_admin_x', ...nowhere], {env})
    expect(onArgv.code).toBe(2)
    expect(onArgv.stdout + onArgv.stderr).not.toContain('sk_admin_x')
    const net = await svcInProcess(['sandbox', 'list', ...nowhere], {env})
    expect(net.code).toBe(9) // the same command with good input does send
  }, 60_000)
})

describe('CI use: svc sandbox create, 10 parallel `svc flow run`, svc sandbox delete', () => {
  it('10 flows in parallel against 10 sandboxes of one server all pass, each in its own sandbox', async () => {
    const dataDir = join(home, 'ci')
    const server = await serve(home, dataDir, ['--multi'])
    const env = {
      HOME: home,
      SVC_CONFIG_DIR: join(home, 'config'),
      SVC_DATA_DIR: join(home, 'data'),
      SVC_SANDBOX_ADMIN_SECRET: (server.ready as unknown as {adminSecret: string}).adminSecret,
      CI: '1',
      SVC_NO_INPUT: '1',
      NO_COLOR: '1',
    }
    const names = Array.from({length: 10}, (_, i) => `ci-${i}`)
    // The example onboarding flow, as a team's CI would run it: its svc steps run inside each flow run's process.
    const ciFlow = join(process.cwd(), 'flows', 'onboarding-individual.yaml')
    // All at once, as 10 CI jobs on one runner would: every job's profile must survive the others' writes.
    // Ten processes, as ten jobs are: the commands run one after another below run in this process.
    const creates = await Promise.all(
      names.map((name) =>
        svc(['sandbox', 'create', name, '--base-url', server.ready.url, '--json'], {env, timeoutMs: 60_000}),
      ),
    )
    for (const [i, r] of creates.entries()) {
      const name = names[i]
      expect(r.code, r.stderr).toBe(0)
      expect(r.json()).toMatchObject({
        name,
        profile: name,
        url: `${new URL(server.ready.url).origin}/sandboxes/${name}/2025-10-13`,
      })
      expect(r.stdout + r.stderr).not.toMatch(/sk_local_/) // the secret went to the profile only
    }
    expect(statSync(join(home, 'config', 'credentials.json')).mode & 0o777).toBe(0o600)
    expect(statSync(join(home, 'config', 'config.json')).mode & 0o777).toBe(0o600)

    // The flow moves each sandbox's own clock past the KYC decision; frozen, none lands early on a loaded machine.
    for (const name of names)
      expect((await svcInProcess(['sandbox', 'clock', 'freeze', '--profile', name, '--json'], {env})).code).toBe(0)
    const runs = await Promise.all(
      names.map((name) =>
        svc(['flow', 'run', ciFlow, '--profile', name, '--json'], {
          env,
          timeoutMs: 240_000,
        }),
      ),
    )
    for (const [i, r] of runs.entries()) {
      expect(r.code, `${names[i]}: ${r.stdout}${r.stderr}`).toBe(0)
      expect(r.json().ok).toBe(true)
      expect(r.json().target.baseUrl).toContain(`/sandboxes/${names[i]}/`)
    }
    // Each sandbox holds exactly the one customer its own flow made, approved.
    for (const name of names) {
      const r = await svcInProcess(['customers', 'list', '--profile', name, '--json'], {env})
      expect(r.code, r.stderr).toBe(0)
      expect(r.json().data.map((c: {kycStatus: string}) => c.kycStatus)).toEqual(['APPROVED'])
    }
    expect(
      (
        await svcInProcess(['customers', 'list', '--base-url', server.ready.url, '--json'], {
          env: {...env, SVC_TOKEN_ID: server.ready.tokenId, SVC_CLIENT_SECRET: server.ready.clientSecret},
        })
      ).json().data,
    ).toEqual([])

    const list = await svcInProcess(['sandbox', 'list', '--base-url', server.ready.url, '--json'], {env})
    expect(list.json().map((s: {name: string}) => s.name)).toEqual(['default', ...names])
    const del = await svcInProcess(['sandbox', 'delete', 'ci-0', '--base-url', server.ready.url, '--yes', '--json'], {
      env,
    })
    expect(del.code, del.stderr).toBe(0)
    expect(del.json()).toEqual({name: 'ci-0', deleted: true, profileRemoved: true})
    expect(readdirSync(join(dataDir, 'sandboxes'))).not.toContain('ci-0')
    const gone = await svcInProcess(['customers', 'list', '--profile', 'ci-0', '--json'], {env})
    expect(gone.code).toBe(2) // the profile is gone with it
    const reset = await svcInProcess(
      ['sandbox', 'reset', '--name', 'ci-1', '--base-url', server.ready.url, '--yes', '--json'],
      {
        env,
      },
    )
    expect(reset.json()).toEqual({reset: true, name: 'ci-1'})
    expect((await svcInProcess(['customers', 'list', '--profile', 'ci-1', '--json'], {env})).json().data).toEqual([])
    expect((await svcInProcess(['customers', 'list', '--profile', 'ci-2', '--json'], {env})).json().data).toHaveLength(
      1,
    )
    server.child.kill('SIGTERM')
    await new Promise((r) => server.child.once('exit', r))
  }, 300_000)
})
