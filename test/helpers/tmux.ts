import {execFileSync, spawnSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {sh} from './pty.js'
import {closeBeforeRemoval, tempDir} from './temp-dirs.js'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

/** tmux is present on developer machines here, not on a fresh Node-only CI runner: tests skip with this reason. */
// SVC_TEST_NO_TMUX=1 plays a fresh CI machine without tmux.
export const hasTmux = !process.env.SVC_TEST_NO_TMUX && spawnSync('tmux', ['-V'], {stdio: 'ignore'}).status === 0
export const NO_TMUX = 'tmux is not installed: pseudo-terminal tests skipped (apt-get install -y tmux to run them)'

/**
 * `svc` on a real pseudo-terminal of a fixed size inside a private tmux server: the operator's view.
 * The command's exit code is written to a file when it ends, so the pane can stay for capture.
 */
export class TmuxSession {
  private readonly socket: string
  private readonly dir: string
  readonly name = 'svc'
  private killed = false

  constructor(args: string[], opts: {env: Record<string, string | undefined>; width?: number; height?: number}) {
    this.dir = tempDir('svc-tmux-')
    closeBeforeRemoval(() => this.kill())
    this.socket = join(this.dir, 'sock')
    // No pager unless a test asks for one (SVC_PAGER in opts.env): `less` would wait for a key on a long list.
    const env: Record<string, string | undefined> = {
      SVC_PAGER: '',
      ...opts.env,
      TERM: 'xterm-256color',
      PATH: process.env.PATH,
    }
    delete env.CI
    delete env.SVC_NO_INPUT
    const exports = Object.entries(env)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `export ${k}=${sh(v!)}`)
      .join('\n')
    const script = join(this.dir, 'run.sh')
    // The shell ignores Ctrl-C (a trap, which children do not inherit) so it survives to record the exit code.
    // The tmux server hands its own environment (CI=true on CI) to the shell: unset what turns prompts off.
    writeFileSync(
      script,
      `unset CI SVC_NO_INPUT\n${exports}\ntrap : INT\n${sh(process.execPath)} ${sh(BIN)} ${args.map(sh).join(' ')}\necho $? > ${sh(join(this.dir, 'rc'))}\nsleep 600\n`,
    )
    this.tmux(
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(opts.width ?? 80),
      '-y',
      String(opts.height ?? 50),
      `sh ${sh(script)}`,
    )
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], {encoding: 'utf8'})
  }

  /** The visible screen plus scrollback, as plain text. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', this.name)
  }

  /** Keys as tmux names them: 'C-c', 'Enter', or literal text with `literal`. */
  keys(keys: string, literal = false): void {
    this.tmux('send-keys', '-t', this.name, ...(literal ? ['-l', keys] : [keys]))
  }

  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const start = Date.now()
    for (;;) {
      const s = this.screen()
      if (pattern.test(s)) return s
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${pattern} on the terminal:\n${s}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  /** The command's exit code once it has ended. */
  async exitCode(timeoutMs = 20_000): Promise<number> {
    const start = Date.now()
    for (;;) {
      try {
        const rc = readFileSync(join(this.dir, 'rc'), 'utf8').trim()
        if (rc) return Number(rc)
      } catch {}
      if (Date.now() - start > timeoutMs) throw new Error(`command did not end:\n${this.screen()}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  kill(): void {
    if (this.killed) return
    this.killed = true
    try {
      this.tmux('kill-server')
    } catch {}
  }
}
