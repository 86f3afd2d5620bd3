import type {DescribedRequest, Method} from '../api/client.js'
import type {RequestOptions} from '../api/client-options.js'
import type {Context} from '../context.js'
import {SvcError, usageError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {finishedBy, readHistory, type HistoryRecord} from './store.js'

/** A record that cannot be finished: the state of the record refuses it (exit 6), with what to do instead. */
function refused(message: string, hint: string, n: number): SvcError {
  return new SvcError({
    code: 'HISTORY_NOT_FINISHABLE',
    exitCode: ExitCode.CONFLICT,
    message,
    hint,
    details: {record: n},
  })
}

/**
 * The write of record n, exactly as it was sent (method, path, body, Idempotency-Key), checked: it
 * must have ended with its outcome unknown, not be finished already, carry a key and a kept body,
 * and go to the same base URL it went to.
 */
export function finishRequest(ctx: Context, n: number): {record: HistoryRecord; request: RequestOptions} {
  const records = readHistory(ctx.env)
  const r = records.find((x) => x.n === n)
  if (!r)
    throw new SvcError({
      code: 'HISTORY_RECORD_NOT_FOUND',
      exitCode: ExitCode.NOT_FOUND,
      message: `svc history has no record ${n}${records.length ? ` (it keeps ${records[0].n}-${records.at(-1)!.n})` : ' (it is empty)'}`,
      hint: 'List the writes whose outcome is unknown with `svc history --unknown`.',
    })
  const said = `${r.method} ${r.path}`
  if (r.outcome !== 'unknown')
    throw refused(
      `Record ${n} (${said}) ended ${r.outcome}${r.status ? ` with ${r.status}` : ''}: its outcome is known, so there is nothing to finish`,
      'Only a write whose outcome is unknown is finished: `svc history --unknown` lists them.',
      n,
    )
  const done = finishedBy(records, n)
  if (done)
    throw refused(
      `Record ${n} (${said}) was finished already by record ${done.n} (${done.outcome})`,
      done.outcome === 'unknown' ? `Finish the later one: \`svc history finish ${done.n}\`.` : 'Nothing is left to do.',
      n,
    )
  if (!r.idempotencyKey)
    throw refused(
      `Record ${n} (${said}) carried no Idempotency-Key, so sending it again could do it twice`,
      'Check whether it took effect first (list or get the object), and send a new one only if it did not.',
      n,
    )
  if (!r.resend)
    throw refused(
      `Record ${n} (${said}) was not kept whole (a secret field, a wallet signature or a file): it cannot be re-sent from the history`,
      `Re-run the command with its key: ${r.command} --idempotency-key ${r.idempotencyKey}`,
      n,
    )
  if (ctx.profile.baseUrl !== r.baseUrl)
    throw usageError(
      `Record ${n} was sent to ${r.baseUrl} (profile ${r.profile}); this command would send to ${ctx.profile.baseUrl}`,
      `Finish it where it was sent: \`svc history finish ${n} --profile ${r.profile}\` (or --base-url ${r.baseUrl}).`,
    )
  return {
    record: r,
    request: {
      method: r.method as Method,
      path: r.resend.segments,
      ...(r.resend.query ? {query: r.resend.query as RequestOptions['query']} : {}),
      ...(r.resend.body === undefined ? {} : {body: r.resend.body}),
      idempotencyKey: r.idempotencyKey,
    },
  }
}

/** `--dry-run`: the request that finishing record n would send, credentials redacted. */
export function describeFinish(ctx: Context, n: number): {dryRun: true; record: number; request: DescribedRequest} {
  const {request} = finishRequest(ctx, n)
  return {dryRun: true, record: n, request: ctx.transport.describe(request)}
}

/**
 * Sends record n's write again with its recorded key, and only that write: the Service answers the
 * first result (it was done) or does it now (it was not). Either way it is done exactly once.
 */
export async function finishWrite(
  ctx: Context,
  n: number,
  yes: boolean,
): Promise<{record: HistoryRecord; status: number; answer: unknown}> {
  const {record, request} = finishRequest(ctx, n)
  ctx.banner(`finish record ${n}: ${record.method} ${record.path}`)
  await ctx.confirm(`Send ${record.method} ${record.path} again with Idempotency-Key ${record.idempotencyKey}?`, {
    yes,
    always: true,
  })
  ctx.historyFinishes = n
  const res = await ctx.client.request(request)
  return {record, status: res.status, answer: res.body}
}
