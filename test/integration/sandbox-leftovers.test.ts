import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {existsSync, mkdirSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {errorOf, svc} from '../helpers/cli.js'
import {svcInProcess} from '../helpers/run-command.js'
import {startSandbox} from '../helpers/sandbox.js'
import {tempDir} from '../helpers/temp-dirs.js'

// Leftovers of the faults round: files a killed snapshot save left, and a serve.lock naming a
// live process that is not a sandbox.

/** The pid of a process that has ended (a killed save's, as far as anyone can tell). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''])
  return r.pid!
}

const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
})

/** A live process that is not a sandbox: `sleep`, or Node started after `since`. */
function live(cmd: string, args: string[]): number {
  const child = spawn(cmd, args, {stdio: 'ignore'})
  children.push(child)
  return child.pid!
}

describe('a killed `svc sandbox snapshot save` leaves <file>.<pid>.partial and -journal: cleaned', () => {
  it('the next save removes what dead saves left, beside its file and wherever their notes point; a live save is left alone', async () => {
    const sbx = await startSandbox()
    const out = tempDir('svc-save-')
    const elsewhere = tempDir('svc-save-other-')
    const dead = deadPid()
    // What a save killed during VACUUM INTO leaves: the partial copy, its journal, and its note in the data dir.
    const beside = [`${join(out, 'ticket.db')}.${dead}.partial`, `${join(out, 'ticket.db')}.${dead}.partial-journal`]
    const noted = [`${join(elsewhere, 'x.db')}.${dead}.partial`, `${join(elsewhere, 'x.db')}.${dead}.partial-journal`]
    // A save still running in another process (the save under test may run in this one: test/helpers/run-command.ts).
    const running = `${join(out, 'ticket.db')}.${live('sleep', ['60'])}.partial`
    for (const f of [...beside, ...noted, running]) writeFileSync(f, 'partial', {mode: 0o600})
    writeFileSync(join(sbx.dir, `partial-copy.${dead}`), noted[0]!)

    const r = await sbx.run(['sandbox', 'snapshot', 'save', join(out, 'ticket.db'), '--data-dir', sbx.dir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(join(out, 'ticket.db'))).toBe(true)
    for (const f of [...beside, ...noted, join(sbx.dir, `partial-copy.${dead}`)]) expect(existsSync(f), f).toBe(false)
    expect(existsSync(running)).toBe(true)
    // The save's own note is gone with it.
    expect(spawnSync('ls', [sbx.dir]).stdout.toString()).not.toMatch(/partial-copy/)
  })

  it('svc doctor removes them too, and says what it removed', async () => {
    const sbx = await startSandbox()
    const out = tempDir('svc-save-')
    const dead = deadPid()
    const left = [`${join(out, 'a.db')}.${dead}.partial`, `${join(out, 'a.db')}.${dead}.partial-journal`]
    for (const f of left) writeFileSync(f, 'partial', {mode: 0o600})
    writeFileSync(join(sbx.dir, `partial-copy.${dead}`), left[0]!)
    const r = await sbx.run(['doctor', '--json'], {env: {SVC_SANDBOX_DIR: sbx.dir}})
    const check = r.json().checks.find((c: {name: string}) => c.name === 'partial copies')
    expect(check).toEqual({
      name: 'partial copies',
      status: 'warn',
      detail: `removed 2 file(s) a killed snapshot save left: ${left.join(', ')}`,
    })
    for (const f of left) expect(existsSync(f)).toBe(false)
    const again = await sbx.run(['doctor', '--json'], {env: {SVC_SANDBOX_DIR: sbx.dir}})
    expect(again.json().checks.map((c: {name: string}) => c.name)).not.toContain('partial copies')
  })
})

describe('a serve.lock naming a live pid that is not a sandbox does not block serve', () => {
  const home = tempDir('svc-lock-home-')
  const env = {SVC_CONFIG_DIR: join(home, 'config'), HOME: home, CI: '1', NO_COLOR: '1'}

  async function serveOver(holder: number, writtenAt?: Date) {
    const dir = tempDir('svc-lock-')
    mkdirSync(dir, {recursive: true, mode: 0o700})
    for (const [name, body] of [
      ['serve.lock', JSON.stringify({pid: holder, url: 'http://127.0.0.1:1/2025-10-13'})],
      ['sandbox.pid', String(holder)],
    ] as const) {
      writeFileSync(join(dir, name), body, {mode: 0o600})
      if (writtenAt) utimesSync(join(dir, name), writtenAt, writtenAt)
    }
    // The command that reports and stops runs in-process; the server it starts is a process of its own.
    const r = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--json'], {
      env: {...env, SVC_SANDBOX_DIR: dir},
    })
    const stop = () => svcInProcess(['sandbox', 'stop'], {env: {...env, SVC_SANDBOX_DIR: dir}})
    return {r, dir, stop}
  }

  it('a process that is not Node (pid reused by `sleep`): the lock is taken over and the sandbox serves', async () => {
    const {r, stop} = await serveOver(live('sleep', ['30']))
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/)
    expect((await stop()).code).toBe(0)
  })

  it('a Node process that started after the lock was written (a reboot, a kill -9 long ago): taken over too', async () => {
    const pid = live(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    const {r, stop} = await serveOver(pid, new Date(Date.now() - 3600_000))
    expect(r.code, r.stderr).toBe(0)
    expect((await stop()).code).toBe(0)
  })

  it('a sandbox that does serve the dir still refuses a second one, naming it', async () => {
    const dir = tempDir('svc-lock-')
    const first = await svcInProcess(['sandbox', 'serve', '--detach', '--port', '0', '--json'], {
      env: {...env, SVC_SANDBOX_DIR: dir},
    })
    expect(first.code, first.stderr).toBe(0)
    // A foreground serve, as a process: were it not refused, it would serve until stopped.
    const second = await svc(['sandbox', 'serve', '--port', '0', '--json'], {env: {...env, SVC_SANDBOX_DIR: dir}})
    expect(second.code).toBe(6)
    expect(errorOf(second)).toMatchObject({code: 'SANDBOX_RUNNING', details: {pid: first.json().pid}})
    expect((await svcInProcess(['sandbox', 'stop'], {env: {...env, SVC_SANDBOX_DIR: dir}})).code).toBe(0)
  })
})
