import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'

const LOCK_MODULE = pathToFileURL(resolve('dist/emulator/serve-lock.js')).href
const dirs: string[] = []
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-lock-'))
  dirs.push(d)
  return d
}
afterAll(() => dirs.forEach((d) => rmSync(d, {recursive: true, force: true})))

/** A process that takes the lock when told 'go' on stdin, says whether it won, and holds it until stdin closes. */
const CONTENDER = `
const {lockDataDir} = await import(process.argv[1])
process.stdout.write('ready\\n')
process.stdin.once('data', () => {
  try {
    const lock = lockDataDir(process.argv[2])
    lock.setUrl('http://127.0.0.1:1/pid-' + process.pid)
    process.stdout.write('won\\n')
    process.stdin.on('end', () => { lock.release(); process.exit(0) })
  } catch (e) {
    process.stdout.write((e.name === 'SandboxInUseError' ? 'refused ' + e.pid : 'error ' + e.message) + '\\n')
    process.exit(0)
  }
})
`

function contender(dir: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CONTENDER, LOCK_MODULE, dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let out = ''
  const ready = new Promise<void>((done) =>
    child.stdout!.on('data', (c: Buffer) => ((out += c.toString()), out.includes('ready') && done())),
  )
  return {child, ready}
}
async function race(dir: string, n: number): Promise<{children: ChildProcess[]; answers: string[]}> {
  const all = Array.from({length: n}, () => contender(dir))
  await Promise.all(all.map((c) => c.ready))
  for (const c of all) c.child.stdin!.write('go\n')
  const answers = await Promise.all(
    all.map(
      (c) =>
        new Promise<string>((done) => {
          const look = (chunk?: Buffer) => {
            const text = chunk?.toString() ?? ''
            const line = text.split('\n').find((l) => /^(won|refused|error)/.test(l))
            if (line) done(line)
          }
          c.child.stdout!.on('data', look)
        }),
    ),
  )
  return {children: all.map((c) => c.child), answers}
}

const finish = (children: ChildProcess[]) =>
  Promise.all(
    children.map(
      (c) =>
        new Promise<void>((done) => {
          if (c.exitCode !== null) return done()
          c.once('exit', () => done())
          c.stdin!.end()
        }),
    ),
  )

describe('the data dir lock (serve.lock)', () => {
  it('of six servers started at the same instant exactly one takes the dir, every round, and the others name it', async () => {
    const dir = newDir()
    for (let round = 0; round < 8; round++) {
      const {children, answers} = await race(dir, 6)
      const winners = answers.filter((a) => a === 'won')
      expect(answers.filter((a) => a.startsWith('error'))).toEqual([])
      expect(winners).toHaveLength(1)
      const winnerPid = children[answers.indexOf('won')].pid
      for (const a of answers.filter((x) => x !== 'won')) expect(a).toBe(`refused ${winnerPid}`)
      await finish(children)
      expect(existsSync(join(dir, 'serve.lock'))).toBe(false)
    }
  }, 60_000)

  it("a dead holder's name left in serve.lock is ignored: exactly one of several servers started together takes the dir", async () => {
    for (let round = 0; round < 4; round++) {
      const dir = newDir()
      writeFileSync(join(dir, 'serve.lock'), JSON.stringify({pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:9/'}))
      const {children, answers} = await race(dir, 5)
      expect(answers.filter((a) => a === 'won')).toHaveLength(1)
      const held = JSON.parse(readFileSync(join(dir, 'serve.lock'), 'utf8')) as {pid: number; url: string}
      expect(held.pid).toBe(children[answers.indexOf('won')].pid)
      expect(held.url).toBe(`http://127.0.0.1:1/pid-${held.pid}`)
      await finish(children)
    }
  }, 60_000)

  it('a holder killed with -9 while holding leaves nothing to take over: the next servers race fairly at once', async () => {
    const dir = newDir()
    for (let round = 0; round < 3; round++) {
      const first = await race(dir, 1)
      expect(first.answers).toEqual(['won'])
      first.children[0].kill('SIGKILL')
      await new Promise((done) => first.children[0].once('exit', done))
      // its name is still there, naming a dead pid
      expect(JSON.parse(readFileSync(join(dir, 'serve.lock'), 'utf8')).pid).toBe(first.children[0].pid)
      const {children, answers} = await race(dir, 5)
      expect(answers.filter((a) => a === 'won')).toHaveLength(1)
      const winnerPid = children[answers.indexOf('won')].pid
      for (const a of answers.filter((x) => x !== 'won')) expect(a).toBe(`refused ${winnerPid}`)
      await finish(children)
    }
  }, 60_000)

  it('a damaged lock database (not SQLite) is emptied in place and the dir is taken', async () => {
    const dir = newDir()
    writeFileSync(join(dir, 'serve.lock.db'), 'this is not a database, it was damaged '.repeat(40))
    const {children, answers} = await race(dir, 3)
    expect(answers.filter((a) => a === 'won')).toHaveLength(1)
    expect(answers.filter((a) => a.startsWith('error'))).toEqual([])
    await finish(children)
  }, 60_000)
})
