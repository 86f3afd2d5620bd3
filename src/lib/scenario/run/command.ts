import {existsSync, mkdirSync, statSync, writeFileSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {Errors, type Config} from '@oclif/core'
import {ApiClient} from '../../api/client.js'
import type {Context} from '../../context.js'
import {SvcError, usageError, type ErrorDocument} from '../../errors.js'
import {ExitCode} from '../../exit-codes.js'
import {Secret} from '../../secret.js'
import {loadFlow} from './load.js'
import {progressReporter, junitXml} from './report.js'
import {runFlow, type FlowResult} from './run.js'
import type {StepTarget} from './steps.js'
import type {StartThrowawaySandbox, ThrowawaySandbox} from './local.js'
import {io} from '../../io.js'
import {configCommands} from '../../command-lookup.js'

export interface FlowRunOptions {
  file: string
  local?: boolean
  junit?: string
  yes?: boolean
  json: boolean
  profile?: string
  baseUrl?: string
  /** The process's oclif config: `svc:` steps run in this process, on its commands (svc-step.ts). */
  config?: Config
  /** Starts the throwaway sandbox for --local (the command passes the sandbox's entry module in). */
  startSandbox?: StartThrowawaySandbox
}

export type FlowRunDocument = FlowResult & {
  target: {local: boolean; baseUrl: string}
  error?: ReturnType<SvcError['toDocument']>
}

/** `svc flow run`: check the file, pick the target, run, report (stderr progress, --json, --junit). */
export async function runFlowCommand(ctx: Context, opts: FlowRunOptions): Promise<FlowRunDocument> {
  const {flow, stepLines} = await loadFlow(opts.file)
  const junit = opts.junit ? resolve(opts.junit) : undefined
  if (junit && existsSync(junit) && statSync(junit).isDirectory())
    throw usageError(
      `--junit ${opts.junit}: the path is a folder`,
      'Name the report file, e.g. reports/flow.xml; nothing was run.',
    )
  // `--junit reports/flow.xml` in a fresh checkout: the folder is made, as CI report paths expect.
  if (junit) mkdirSync(dirname(junit), {recursive: true})
  const out = ctx.out
  let sandbox: ThrowawaySandbox | undefined
  const abort = new AbortController()
  const onSignal = () => abort.abort()
  const offSignals = [io().onSignal('SIGINT', onSignal), io().onSignal('SIGTERM', onSignal)]
  const progress = progressReporter(io().stderr, out)
  let result: FlowResult
  let baseUrl: string
  let client: ApiClient | undefined
  try {
    let env: NodeJS.ProcessEnv
    if (opts.local) {
      if (!opts.startSandbox) throw new Error('runFlowCommand: --local needs opts.startSandbox')
      sandbox = await opts.startSandbox(flow.sandbox)
      baseUrl = sandbox.url
      out.info(out.dim(`Throwaway local sandbox at ${sandbox.url}`))
      client = new ApiClient({
        baseUrl,
        tokenId: sandbox.tokenId,
        secret: new Secret(sandbox.clientSecret),
        timeoutMs: 30_000,
        userAgent: `svc-cli flow-run node/${process.version}`,
      })
      const {SVC_PROFILE: _p, SVC_SANDBOX_DIR: _s, ...rest} = ctx.env
      env = {...rest, ...sandbox.env}
    } else {
      if (flow.sandbox) out.warn(ignoredSandboxSettings(flow.sandbox, ctx.profile.baseUrl))
      baseUrl = ctx.profile.baseUrl
      ctx.banner(`flow ${flow.name}`)
      await ctx.confirm(`run the flow "${flow.name}" against production?`, {yes: opts.yes})
      client = ctx.client
      env = {
        ...ctx.env,
        ...(opts.profile ? {SVC_PROFILE: opts.profile} : {}),
        ...(opts.baseUrl ? {SVC_BASE_URL: opts.baseUrl} : {}),
      }
    }
    // Commands inside a flow never prompt, and their output is parsed, not shown.
    env = {...env, SVC_NO_INPUT: '1', NO_COLOR: '1', FORCE_COLOR: undefined}
    const target: StepTarget = {
      client: client!,
      env,
      cwd: dirname(resolve(opts.file)),
      seenEvents: new Set(),
      signal: abort.signal,
      sleep: ctx.sleep,
      inProcess: opts.config && {config: opts.config, commands: io().commands ?? configCommands(opts.config)},
    }
    out.info(`${out.bold(flow.name)} · ${flow.steps.length} step${flow.steps.length === 1 ? '' : 's'}`)
    // --timeout bounds the whole run, not each step (each step keeps its own, shorter, timeout).
    const deadline = Date.now() + ctx.remainingMs()
    result = await runFlow(flow, {file: opts.file, stepLines, target, progress, env, deadline})
  } finally {
    if (opts.local) await client?.close()
    progress.stop()
    for (const off of offSignals) off()
    await sandbox?.close()
  }
  if (junit) writeFileSync(junit, junitXml(result))
  const doc: FlowRunDocument = {...result, target: {local: Boolean(opts.local), baseUrl}}
  if (result.ok) {
    out.print(
      `PASS ${flow.name}: ${result.steps.length}/${result.steps.length} steps in ${(result.durationMs / 1000).toFixed(1)}s`,
    )
    return doc
  }
  const failed = result.steps.find((s) => s.status === 'failed')!
  const error = abort.signal.aborted
    ? new SvcError({
        code: 'INTERRUPTED',
        exitCode: ExitCode.INTERRUPTED,
        message: `Interrupted at step ${failed.index} "${failed.name}"`,
        ...interruptedStep(failed),
      })
    : new SvcError({
        code: 'FLOW_STEP_FAILED',
        exitCode: ExitCode.FAILED,
        message: `Step ${failed.index}/${result.steps.length} "${failed.name}" (line ${failed.line}) failed: ${failed.failure!.message}`,
        details: {
          step: failed.name,
          index: failed.index,
          line: failed.line,
          expected: failed.failure!.expected,
          actual: failed.failure!.actual,
        },
        hint: 'The step, what was expected and what came back are above; the steps after it did not run.',
      })
  if (!opts.json) throw error
  // Under --json the result document carries the error document too, then exit non-zero.
  out.printJson({...doc, error: error.toDocument()})
  throw new Errors.ExitError(error.exitCode)
}

/**
 * A flow's `sandbox:` block configures the throwaway sandbox of --local only. Said at the start, by
 * name, since a step that relies on one (a fast decision, no paperwork) would otherwise just wait
 * out its timeout against a sandbox that never got the setting.
 */
export function ignoredSandboxSettings(settings: Record<string, unknown>, baseUrl: string): string {
  const named = Object.entries(settings)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ')
  return `The flow's sandbox: settings (${named}) apply to --local runs only and are ignored against ${baseUrl}; steps that rely on them may wait until their timeout. Run with --local to use them.`
}

/**
 * What the interrupted step's command said on Ctrl-C (what goes on at the Service without svc, and
 * the command that resumes it): its own error document, whose words become the flow's hint.
 */
function interruptedStep(step: FlowResult['steps'][number]): {details?: Record<string, unknown>; hint?: string} {
  const said = (step.failure?.actual as {output?: {error?: ErrorDocument}} | null)?.output?.error
  if (said?.code !== 'INTERRUPTED') return {}
  return {
    details: {step: step.name, index: step.index, ...said.details},
    hint: [`${said.reason}.`, said.hint].filter(Boolean).join(' '),
  }
}
