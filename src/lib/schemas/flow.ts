import * as z from 'zod'
import {parseDuration} from '../duration.js'
import {PATH_RE, VAR_NAME_RE} from '../scenario/run/paths.js'
import {clockInstant, clockSpan} from './clock-time.js'
import type {SandboxSettingsPatch} from './config.js'

/**
 * A flow file (`svc flow run <flow.yaml>`): named steps run in order, each an svc command, an API
 * call or a wait for a webhook, with captures into variables and expectations.
 */
const path = z.string().regex(PATH_RE, {message: 'must be a path like id, data[0].id or $ (the whole document)'})
const varName = z.string().regex(VAR_NAME_RE, {message: 'must be a variable name (letters, digits, _)'})
const duration = z
  .string()
  .refine((v) => parseDuration(v) !== undefined, {message: 'must be a duration like 500ms, 30s or 2m'})
const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String)

export const flowExpect = z.strictObject({
  /** svc steps: the exit code (default 0). */
  exit: z.number().int().min(0).max(255).optional(),
  /** api steps: the HTTP status (default: any status below 400). */
  status: z.number().int().min(100).max(599).optional(),
  /** path -> the exact value there (strings may use ${...}). */
  equals: z.record(path, z.unknown()).optional(),
  /** path -> a regular expression the value must match. */
  matches: z.record(path, z.string().refine(isRegex, {message: 'must be a valid regular expression'})).optional(),
})

export const flowStep = z
  .strictObject({
    name: z.string().min(1).max(200),
    /** An svc command: argv as a list, or one line split like a shell does. --json is added. */
    svc: z.union([z.string().min(1), z.array(scalar).min(1)]).optional(),
    /** Standard input for the svc command (e.g. a code for --otp-stdin). */
    input: z.string().optional(),
    api: z
      .strictObject({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: z.string().startsWith('/', {message: 'must start with /'}),
        query: z.record(z.string(), scalar).optional(),
        body: z.unknown().optional(),
        idempotencyKey: z.string().min(1).optional(),
      })
      .optional(),
    /** Waits for a webhook event of this type (from the sandbox's event log) emitted during the run. */
    webhook: z
      .strictObject({
        type: z.string().regex(/^[A-Z][A-Z0-9_.]*$/, {message: 'must be an event type like CUSTOMER.KYC_APPROVED'}),
        where: z.record(path, z.unknown()).optional(),
      })
      .optional(),
    /**
     * Moves the sandbox clock (POST /sandbox/clock/...): `advance: 6m` or `to: <instant>` runs the jobs
     * due on the way; `freeze: true` stops it, `freeze: false` lets it tick again. The answer is the step's JSON.
     */
    clock: z
      .strictObject({advance: clockSpan.optional(), to: clockInstant.optional(), freeze: z.boolean().optional()})
      .refine((c) => [c.advance, c.to, c.freeze].filter((v) => v !== undefined).length === 1, {
        message: 'needs exactly one of advance, to or freeze',
      })
      .optional(),
    /** Variables set from this step's JSON: name -> path. */
    capture: z.record(varName, path).optional(),
    expect: flowExpect.optional(),
    /** How long the step may take (default 60s). */
    timeout: duration.optional(),
  })
  .superRefine(
    (s, ctx) => {
      const kinds = (['svc', 'api', 'webhook', 'clock'] as const).filter((k) => s[k] !== undefined)
      if (kinds.length !== 1)
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: kinds.length
            ? `has ${kinds.join(' and ')}: a step is exactly one of svc, api, webhook or clock`
            : 'needs one of svc, api, webhook or clock',
        })
      if (s.expect?.exit !== undefined && !s.svc)
        ctx.addIssue({code: 'custom', path: ['expect', 'exit'], message: 'applies to svc steps only'})
      if (s.expect?.status !== undefined && !s.api)
        ctx.addIssue({code: 'custom', path: ['expect', 'status'], message: 'applies to api steps only'})
      if (s.input !== undefined && !s.svc)
        ctx.addIssue({code: 'custom', path: ['input'], message: 'applies to svc steps only'})
      // Also when other fields of the step are bad: every problem is reported in one pass.
    },
    {when: () => true},
  )
export type FlowStep = z.infer<typeof flowStep>

export const flowFile = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().optional(),
  /** Variables known from the start (strings may use ${env.NAME} and ${run.id}). */
  vars: z.record(varName, z.unknown()).optional(),
  /**
   * Settings of the throwaway sandbox under --local (same as PATCH /config {sandbox}): checked by
   * loadFlow with the sandbox's own settings schema, built only for a flow that has settings.
   */
  sandbox: z.record(z.string(), z.unknown()).optional(),
  steps: z.array(flowStep).min(1, {message: 'needs at least one step'}),
})
export type FlowFile = Omit<z.infer<typeof flowFile>, 'sandbox'> & {sandbox?: SandboxSettingsPatch}

function isRegex(v: string): boolean {
  try {
    new RegExp(v)
    return true
  } catch {
    return false
  }
}
