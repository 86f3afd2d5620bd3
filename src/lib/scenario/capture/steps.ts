/** A step of the flow being written (the shape `svc flow run` reads), plus a comment shown above it. */
export interface CaptureStep {
  name: string
  svc?: string[]
  input?: string
  api?: {method: 'GET' | 'POST' | 'PATCH'; path: string; query?: Record<string, string>; body?: unknown}
  webhook?: {type: string; where?: Record<string, unknown>}
  capture?: Record<string, string>
  expect?: {exit?: number; status?: number; equals?: Record<string, unknown>; matches?: Record<string, string>}
  timeout?: string
  /** Written as a YAML comment above the step (what it stands for, or what could not be reproduced). */
  comment?: string
}

/** What the build produced: the steps, and the states it could not reproduce (also comments in the file). */
export interface CaptureOutput {
  steps: CaptureStep[]
  notReproduced: string[]
}

/** A collector the build parts append to. */
export class StepList implements CaptureOutput {
  readonly steps: CaptureStep[] = []
  readonly notReproduced: string[] = []
  /** Settings of the throwaway sandbox the flow needs (its `sandbox:` block, applied by `flow run --local`). */
  readonly sandbox: Record<string, unknown> = {}
  /** A comment waiting for the next step. */
  private pending: string[] = []

  add(step: CaptureStep): void {
    const comment = [...this.pending, ...(step.comment ? [step.comment] : [])].join('\n')
    this.pending = []
    this.steps.push({...step, ...(comment ? {comment} : {})})
  }

  /** A state the sandbox controls cannot rebuild: a comment in the file and a line in the report. */
  cannot(what: string): void {
    this.notReproduced.push(what)
    this.pending.push(`NOT REPRODUCED: ${what}`)
  }

  note(text: string): void {
    this.pending.push(text)
  }

  /** Comments left after the last step (written at the end of the file). */
  trailing(): string {
    return this.pending.join('\n')
  }
}

/** A minimal PDF given on stdin to `kyc documents upload --file -`: the original file is never read. */
export const PLACEHOLDER_PDF =
  '%PDF-1.4\n% placeholder document written by svc flow capture (the original file was not read)\n%%EOF\n'
