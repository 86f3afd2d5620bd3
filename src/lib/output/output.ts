import {Chalk, type ChalkInstance} from 'chalk'
import type {ErrorDocument, FieldError} from '../errors.js'

export interface OutputOptions {
  json: boolean
  color: boolean
  stdout?: NodeJS.WritableStream & {isTTY?: boolean}
  stderr?: NodeJS.WritableStream & {isTTY?: boolean}
}

/**
 * stdout carries data only (JSON or the rendered result); everything meant for the person
 * (progress, hints, warnings, the environment banner) goes to stderr.
 */
export class Output {
  readonly json: boolean
  readonly color: boolean
  /**
   * Set under --query: the whole JSON document must exist before the expression runs, so a list
   * with --all is collected instead of streamed.
   */
  queried = false
  private stdout: NodeJS.WritableStream & {isTTY?: boolean}
  private readonly stderr: NodeJS.WritableStream & {isTTY?: boolean}
  /** The terminal stdout was before a pager took it: tables still fit the terminal's width. */
  private terminal?: NodeJS.WritableStream & {isTTY?: boolean; columns?: number}

  constructor(opts: OutputOptions) {
    this.json = opts.json
    this.color = opts.color
    this.stdout = opts.stdout ?? process.stdout
    this.stderr = opts.stderr ?? process.stderr
    this.style = new Chalk({level: opts.color ? 1 : 0})
  }

  get stdoutIsTTY(): boolean {
    return Boolean((this.terminal ?? this.stdout).isTTY)
  }

  /** The terminal's width when stdout is one (text is wrapped to it), else undefined: pipes are not wrapped. */
  get columns(): number | undefined {
    const out = this.terminal ?? this.stdout
    return out.isTTY ? (out as {columns?: number}).columns : undefined
  }

  /** Sends stdout through a pager from here on, laid out for the terminal the pager shows it on. */
  pageTo(pager: NodeJS.WritableStream): void {
    this.terminal ??= this.stdout
    this.stdout = pager
  }

  /** chalk with the level decided once from --no-color / NO_COLOR / FORCE_COLOR / TTY. */
  readonly style: ChalkInstance

  get bold() {
    return this.style.bold
  }
  get dim() {
    return this.style.dim
  }
  get red() {
    return this.style.red
  }
  get green() {
    return this.style.green
  }
  get yellow() {
    return this.style.yellow
  }
  get cyan() {
    return this.style.cyan
  }

  /** Data line on stdout (human mode only; JSON is printed once by the base command). */
  print(text = ''): void {
    if (!this.json) this.stdout.write(text + '\n')
  }

  /** Raw write to stdout regardless of mode (the JSON document itself, NDJSON lines). */
  write(text: string): void {
    this.stdout.write(text)
  }

  printJson(value: unknown): void {
    this.stdout.write(JSON.stringify(value, null, 2) + '\n')
  }

  /** A note for the person on stderr (printed in --json mode too: stderr is never parsed). */
  info(text: string): void {
    this.stderr.write(text + '\n')
  }

  warn(text: string): void {
    this.stderr.write(this.yellow('! ') + text + '\n')
  }

  success(text: string): void {
    this.stderr.write(this.green('✓ ') + text + '\n')
  }

  /** Under --json: the error's one line on stderr, beside the document on stdout (as gh does). */
  printErrorLine(doc: ErrorDocument): void {
    this.stderr.write(this.errorLine(doc) + '\n')
  }

  private errorLine(doc: ErrorDocument): string {
    return (
      this.red('Error: ') +
      doc.reason +
      (doc.code && doc.code !== 'USAGE' ? this.dim(` (${doc.code}${doc.status ? `, HTTP ${doc.status}` : ''})`) : '')
    )
  }

  /** The error as a person reads it, on stderr. */
  printError(doc: ErrorDocument): void {
    const lines = [this.errorLine(doc)]
    const errors = (doc.details?.errors ?? []) as FieldError[]
    for (const e of Array.isArray(errors) ? errors : []) lines.push(`  - ${this.bold(e.field)}: ${e.message}`)
    if (doc.hint) lines.push(this.dim('Hint: ') + doc.hint)
    this.stderr.write(lines.join('\n') + '\n')
  }
}
