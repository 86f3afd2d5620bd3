import {spawn} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import {delimiter, join} from 'node:path'
import type {Writable} from 'node:stream'
import type {Output} from './output/output.js'

/**
 * The pager for long output on a terminal, by gh's rules: `SVC_PAGER`, else `PAGER`, else `less`
 * with `LESS=FRX` (quit when it fits one screen, keep colours, leave the text on screen). An empty
 * value or `cat` turns it off, and so does output that is not a terminal: pipes never page. The
 * default is used only when `less` is on the PATH (a minimal image has none: output goes straight).
 */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env.SVC_PAGER ?? env.PAGER
  if (chosen !== undefined) return chosen.trim() === '' || chosen.trim() === 'cat' ? undefined : chosen
  return onPath('less', env.PATH) ? 'less' : undefined
}

export interface Pager {
  stdin: Writable
  /** Ends the pager's input and waits for the person to quit it. */
  done(): Promise<void>
}

/** Sends the command's stdout through the pager when one is set (pagerCommand), else leaves it be. */
export function pageOutput(out: Output, env: NodeJS.ProcessEnv): Pager | undefined {
  const command = pagerCommand(env)
  if (!command) return undefined
  const pager = startPager(command, env)
  out.pageTo(pager.stdin)
  return pager
}

/** Starts the pager through the shell (so `less -S` or `sed ... | less` work as they do in gh). */
export function startPager(command: string, env: NodeJS.ProcessEnv): Pager {
  const child = spawn('sh', ['-c', command], {
    stdio: ['pipe', 'inherit', 'inherit'],
    env: {...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c'},
  })
  // Quitting the pager early closes the pipe: the rest of the output has nowhere to go, which is fine.
  child.stdin.on('error', () => {})
  const exited = new Promise<void>((resolve) => {
    child.on('close', () => resolve())
    child.on('error', () => resolve())
  })
  return {
    stdin: child.stdin,
    done: async () => {
      child.stdin.end()
      await exited
    },
  }
}

function onPath(name: string, path = ''): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}
