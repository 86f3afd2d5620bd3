import {Command, Config} from '@oclif/core'
import {beforeAll, describe, expect, it} from 'vitest'
import {runInProcess, startInProcess} from '../../../src/lib/in-process.js'
import {io} from '../../../src/lib/io.js'

// The in-process runner's Io belongs to the run's own asynchronous context (src/lib/io.ts), so a
// run that is given up on and goes on (a flow step at its timeout) never writes into the next one's
// streams, and a signal reaches the handlers a command registered, in its own context.
let config: Config
beforeAll(async () => {
  config = await Config.load({root: process.cwd()})
})

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

class Slow extends Command {
  static override id = 'test:slow'
  async run() {
    io().stdout.write(`${io().env.NAME}:start\n`)
    await pause(60)
    io().stdout.write(`${io().env.NAME}:end\n`)
  }
}

class Waits extends Command {
  static override id = 'test:waits'
  async run() {
    await new Promise<void>((resolve) =>
      io().onSignal('SIGTERM', (signal) => {
        io().stdout.write(`${io().env.NAME} got ${signal}\n`)
        resolve()
      }),
    )
    io().exit(3)
  }
}

describe('in-process runs', () => {
  it('two runs that overlap each write to their own stdout', async () => {
    const a = runInProcess(Slow, [], config, {env: {NAME: 'a'}})
    await pause(20)
    const b = runInProcess(Slow, [], config, {env: {NAME: 'b'}})
    expect((await a).stdout).toBe('a:start\na:end\n')
    expect((await b).stdout).toBe('b:start\nb:end\n')
    // and the caller's own Io is untouched
    expect(io().env.NAME).toBe(process.env.NAME)
  })

  it('a signal reaches the handlers the command registered, once, in its context; none registered is false', async () => {
    const run = startInProcess(Waits, [], config, {env: {NAME: 'w'}})
    await pause(20)
    expect(run.sofar()).toEqual({stdout: '', stderr: '', exited: undefined})
    expect(run.signal('SIGINT')).toBe(false)
    expect(run.signal('SIGTERM')).toBe(true)
    expect(run.signal('SIGTERM')).toBe(false) // process.once: gone after it ran
    expect(await run.done).toEqual({code: 3, stdout: 'w got SIGTERM\n', stderr: ''})
    expect(run.sofar().exited).toBe(3)
  })
})
