import {SvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'

/**
 * What is still going on at the Service while svc waits on it, so that Ctrl-C can say that the
 * work goes on without svc, and which one command picks it up again.
 */
export interface Activity {
  /** "Quote:… is being paid (transaction PROCESSING)": a sentence without the final stop. */
  doing: string
  /** The one command that resumes or inspects it: `svc quote wait Quote:…`. */
  resume?: string
  /** Instead of "Resume or inspect it with: <resume>", when the next step takes a sentence. */
  hint?: string
}

/** Ctrl-C during a wait, at a prompt, or anywhere else: exit 130, with what goes on and how to resume. */
export function interruptedError(activity?: Activity, atPrompt = false, atPromptSaid = 'nothing was sent'): SvcError {
  if (activity) {
    return new SvcError({
      code: 'INTERRUPTED',
      exitCode: ExitCode.INTERRUPTED,
      message: `Interrupted. ${activity.doing}; stopping svc does not stop it`,
      details: activity.resume ? {resume: activity.resume} : {},
      hint: activity.hint ?? (activity.resume ? `Resume or inspect it with: ${activity.resume}` : undefined),
    })
  }
  return new SvcError({
    code: 'INTERRUPTED',
    exitCode: ExitCode.INTERRUPTED,
    message: atPrompt ? `Interrupted at the prompt; ${atPromptSaid}` : 'Interrupted',
    hint: atPrompt
      ? undefined
      : 'A request in flight may still have reached the Service; check before retrying (an --idempotency-key makes a retry safe).',
  })
}

/**
 * One per process: the flows that wait on the Service say what they are waiting for (and update it
 * as the status changes); the base command's SIGINT handler reads it. Keeping the description
 * current, rather than racing the wait, means the message reflects the last status svc saw.
 */
export class Interrupts {
  private stack: Activity[] = []

  get current(): Activity | undefined {
    return this.stack.at(-1)
  }

  /** Runs `fn` with `activity` described; `update` changes the description as the wait progresses. */
  async during<T>(activity: Activity, fn: (update: (doing: string) => void) => Promise<T>): Promise<T> {
    const entry = {...activity}
    this.stack.push(entry)
    try {
      return await fn((doing) => (entry.doing = doing))
    } finally {
      this.stack.splice(this.stack.indexOf(entry), 1)
    }
  }

  error(): SvcError {
    return interruptedError(this.current)
  }
}

/** The process-wide instance (a signal is process-wide too). */
export const interrupts = new Interrupts()
