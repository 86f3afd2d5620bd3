import {spawn, spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

/** `script` (util-linux) gives a command a pseudo-terminal; it is on nearly every Linux machine, tmux is not. */
export const hasScript = spawnSync('script', ['--version'], {stdio: 'ignore'}).status === 0

/** Single-quotes a word for sh. */
export function sh(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
}

export interface TerminalRun {
  /** Everything the command wrote to the terminal, escape sequences included (to assert in-place redraws). */
  raw: string
  /** The same with the escape sequences taken out. */
  out: string
  code: number | null
}

/**
 * What to type, given the transcript so far: an ordered list of [prompt, keys] (each prompt is looked for in
 * what came after the previous answer), or a function that returns the keys to type now, if any.
 */
export type Answers = Array<[RegExp, string]> | ((raw: string) => string | undefined)

/**
 * Runs `svc` on a pseudo-terminal (`script`), as an operator at a shell does: stdin, stdout and stderr are all the
 * terminal, so prompts, spinners and TTY-only output are on. CI and SVC_NO_INPUT are taken out of the environment
 * (they turn prompts off). The transcript is the raw stream, not a rendered screen (that is `TmuxSession`).
 */
export function onTerminal(
  args: string[],
  opts: {env: Record<string, string | undefined>; answers?: Answers; timeoutMs?: number},
): Promise<TerminalRun> {
  const env: Record<string, string> = {}
  // No pager unless a test asks for one: a list longer than the screen would wait in `less` for a key.
  for (const [k, v] of Object.entries({TERM: 'xterm', SVC_PAGER: '', ...opts.env, PATH: process.env.PATH}))
    if (v !== undefined) env[k] = v
  delete env.CI
  delete env.SVC_NO_INPUT
  const answers = opts.answers ?? []
  const cmd = [process.execPath, BIN, ...args].map(sh).join(' ')
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {env})
    let raw = ''
    let seen = 0
    let next = 0
    child.stdout.on('data', (c: Buffer) => {
      raw += c.toString('utf8')
      if (typeof answers === 'function') {
        const keys = answers(raw)
        if (keys !== undefined) child.stdin.write(keys)
      } else if (next < answers.length && answers[next][0].test(raw.slice(seen))) {
        seen = raw.length
        child.stdin.write(answers[next++][1])
      }
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({raw, out: stripAnsi(raw), code})
    })
  })
}

export function stripAnsi(s: string): string {
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
}
