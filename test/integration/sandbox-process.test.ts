import {existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'

const home = mkdtempSync(join(tmpdir(), 'svc-proc-'))
const dataDir = join(home, 'sandbox')
// The implicit local profile, with its credentials read from the sandbox's data dir.
const env: Record<string, string> = {
  HOME: home,
  SVC_CONFIG_DIR: join(home, 'config'),
  SVC_SANDBOX_DIR: dataDir,
  SVC_NO_INPUT: '1',
  NO_COLOR: '1',
}
let pid: number | undefined

afterAll(() => {
  if (pid) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  rmSync(home, {recursive: true, force: true})
})

/** Running, as opposed to gone or exited-but-not-yet-reaped (a zombie: the detached sandbox's parent is gone). */
const alive = (p: number) => {
  try {
    process.kill(p, 0)
  } catch {
    return false
  }
  try {
    return readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    return true
  }
}

describe('svc sandbox serve --detach / stop / reset', () => {
  let url = ''
  let customerId = ''

  it('--detach starts it in the background with a pid file and returns once it is ready', async () => {
    // The binary: the server it starts must outlive it (the commands after this one run in this process).
    const r = await svc(['sandbox', 'serve', '--detach', '--port', '0', '--data-dir', dataDir, '--json'], {env})
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(1) // one line, as the foreground --json ready line
    expect(r.stderr).toContain('Stop it with `svc sandbox stop`.\n') // the default data dir: no --data-dir needed
    const ready = r.json()
    expect(Object.keys(ready)).toEqual(['url', 'tokenId', 'clientSecret', 'webhookPublicKey', 'pid'])
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/)
    expect(ready.webhookPublicKey).toContain('BEGIN PUBLIC KEY')
    pid = ready.pid
    url = ready.url
    expect(alive(pid!)).toBe(true)
    expect(Number(readFileSync(join(dataDir, 'sandbox.pid'), 'utf8'))).toBe(pid)
    expect(statSync(join(dataDir, 'credentials.json')).mode & 0o777).toBe(0o600)
  })

  it('the local profile finds it with no credentials configured', async () => {
    const r = await svcInProcess(
      ['customers', 'create', '--type', 'individual', '--full-name', 'Detached Dora', '--json'],
      {
        env: {...env, SVC_BASE_URL: url},
      },
    )
    expect(r.code).toBe(0)
    customerId = r.json().id
    const who = await svcInProcess(['whoami', '--json'], {env: {...env, SVC_BASE_URL: url}})
    expect(who.json()).toMatchObject({
      profile: 'local',
      environment: 'local',
      credentials: 'local sandbox',
      verified: true,
    })
  })

  it('profiles list shows the local profile at the URL the running sandbox recorded, not the default port', async () => {
    const r = await svcInProcess(['profiles', 'list', '--json'], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toEqual([
      {
        name: 'local',
        environment: 'local',
        baseUrl: url,
        tokenId: expect.stringMatching(/^local_/),
        secret: 'local sandbox',
        active: true,
      },
    ])
    const human = await svcInProcess(['profiles', 'list'], {env})
    expect(human.code).toBe(0)
    expect(human.stdout.split('\n')[1]).toMatch(
      new RegExp(`^\\*\\s+local\\s+local\\s+${url.replaceAll('.', '\\.')}\\s`),
    )
    expect(human.stdout).not.toContain(':4010')
  })

  it('refuses a second sandbox on the same data dir (exit 6, conflict, naming the running one), and a reset under a running one (exit 6)', async () => {
    const again = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--data-dir', dataDir, '--json'], {
      env,
    })
    expect(again.code).toBe(6)
    expect(again.stderr).toContain(`Error: A sandbox is already serving ${dataDir} (pid ${pid}, ${url})`)
    expect(again.json().error.code).toBe('SANDBOX_RUNNING')
    expect(again.json().error.reason).toContain(`pid ${pid}`)
    expect(again.json().error.reason).toContain(url)
    const reset = await svcInProcess(['sandbox', 'reset', '--yes', '--data-dir', dataDir, '--json'], {env})
    expect(reset.code).toBe(6)
    expect(existsSync(join(dataDir, 'sandbox.db'))).toBe(true)
  })

  it('stop ends the process and removes the pid file; stopping again is a no-op', async () => {
    const r = await svcInProcess(['sandbox', 'stop', '--data-dir', dataDir, '--json'], {env})
    expect(r.code).toBe(0)
    expect(r.json()).toEqual({stopped: true, pid})
    expect(alive(pid!)).toBe(false)
    expect(existsSync(join(dataDir, 'sandbox.pid'))).toBe(false)
    const again = await svcInProcess(['sandbox', 'stop', '--data-dir', dataDir, '--json'], {env})
    expect(again.code).toBe(0)
    expect(again.json()).toEqual({stopped: false})
  })

  it('with nothing listening, a local command says which one command to run (exit 9)', async () => {
    const r = await svcInProcess(['customers', 'get', customerId, '--json'], {env: {...env, SVC_BASE_URL: url}})
    expect(r.code).toBe(9)
    expect(r.json().error.hint).toContain('svc sandbox serve --detach')
  })

  it('state survives a restart; reset wipes it but keeps the credentials', async () => {
    const up = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--data-dir', dataDir, '--json'], {
      env,
    })
    pid = up.json().pid
    const e = {...env, SVC_BASE_URL: up.json().url}
    expect((await svcInProcess(['customers', 'get', customerId, '--json'], {env: e})).json().fullName).toBe(
      'Detached Dora',
    )
    const tokenBefore = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).tokenId
    expect((await svcInProcess(['sandbox', 'stop', '--data-dir', dataDir], {env})).code).toBe(0)

    const reset = await svcInProcess(['sandbox', 'reset', '--yes', '--data-dir', dataDir, '--json'], {env})
    expect(reset.code).toBe(0)
    expect(reset.json()).toEqual({reset: true, dataDir})
    // A fresh database is left beside the kept credentials, which is how a start tells a reset from a lost file.
    expect(existsSync(join(dataDir, 'sandbox.db'))).toBe(true)

    const fresh = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--data-dir', dataDir, '--json'], {
      env,
    })
    pid = fresh.json().pid
    expect(fresh.json().tokenId).toBe(tokenBefore)
    const gone = await svcInProcess(['customers', 'get', customerId, '--json'], {
      env: {...env, SVC_BASE_URL: fresh.json().url},
    })
    expect(gone.code).toBe(5)
    expect((await svcInProcess(['sandbox', 'stop', '--data-dir', dataDir], {env})).code).toBe(0)
    pid = undefined
  })
})

describe('serve --multi --detach from another data dir', () => {
  it('prints a stop command that names that dir, and the command as printed stops it', async () => {
    const teamDir = join(home, 'team server')
    const r = await svcInProcess(['sandbox', 'serve', '--multi', '--detach', '--port', '0', '--data-dir', teamDir], {
      env,
    })
    expect(r.code, r.stderr).toBe(0)
    const printed = /Stop it with `(svc sandbox stop[^`]*)` \(every sandbox it serves\)\.\n/.exec(r.stderr)?.[1]
    expect(printed).toBe(`svc sandbox stop --data-dir '${teamDir}'`)
    expect(r.stdout).toMatch(/^url +http:\/\/127\.0\.0\.1:\d+\/2025-10-13\n/)
    const teamPid = Number(readFileSync(join(teamDir, 'sandbox.pid'), 'utf8'))
    expect(alive(teamPid)).toBe(true)
    const stop = await svcInProcess([...printed!.split(' --data-dir ')[0].split(' ').slice(1), '--data-dir', teamDir], {
      env,
    })
    expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, '', `✓ Stopped the local sandbox (pid ${teamPid})\n`])
    expect(alive(teamPid)).toBe(false)
  })
})
