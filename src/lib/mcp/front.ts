// `svc mcp` answers `initialize` before it loads anything else (issue 34: within 1.5x the start of
// `svc --version`). bin/run.js loads this file alone (dist/mcp-front.cjs) when the command line
// is `svc mcp`, answers the client's first message when it is a well-formed `initialize`, and only
// then loads oclif, the command, the SDK and the tools. The SDK's Server still sees every message:
// the front hands it what it read, `initialize` included (so the Server knows the client's
// capabilities and protocol revision), and drops the Server's own answer to it, after checking it
// is the one the front sent (a difference is logged: identity.ts holds what both say).
import {PassThrough, Writable} from 'node:stream'
import {initializeResult} from './identity.js'

type Id = string | number

export interface McpFront {
  /** Settles once the first line is read (and answered, if it was an `initialize`) or stdin ends. */
  firstMessage: Promise<void>
  /**
   * The streams the SDK's transport takes instead of stdin and stdout: everything the front read,
   * then the rest of stdin; stdout less the Server's answer to the `initialize` the front answered.
   */
  handOver(onMismatch: (why: string) => void): {input: PassThrough; output: Writable}
}

/** Starts reading `stdin` for the client's first message (bin/run.js passes the process's streams). */
export function startFront(version: string, stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): McpFront {
  const read: Buffer[] = []
  let answered: {id: Id; result: unknown} | undefined
  let settle!: () => void
  const firstMessage = new Promise<void>((resolve) => (settle = resolve))
  let seenLine = false
  const onData = (chunk: Buffer) => {
    read.push(chunk)
    if (seenLine || !chunk.includes(10)) return
    seenLine = true
    const text = Buffer.concat(read).toString('utf8')
    const request = parseInitialize(text.slice(0, text.indexOf('\n')).replace(/\r$/, ''))
    if (request) {
      answered = {id: request.id, result: initializeResult(version, request.protocolVersion)}
      stdout.write(JSON.stringify({result: answered.result, jsonrpc: '2.0', id: request.id}) + '\n')
    }
    settle()
  }
  stdin.on('data', onData)
  stdin.once('end', settle)
  return {
    firstMessage,
    handOver(onMismatch) {
      const input = new PassThrough()
      stdin.off('data', onData)
      for (const chunk of read) input.write(chunk)
      if ((stdin as NodeJS.ReadableStream & {readableEnded?: boolean}).readableEnded) input.end()
      else stdin.pipe(input)
      let pending = answered
      const output = new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          if (pending) {
            const message = parseJson(chunk.toString())
            if (message?.id === pending.id && ('result' in message || 'error' in message)) {
              if (!sameJson(message.result, pending.result))
                onMismatch(`the early answer to initialize differs from the SDK's: ${JSON.stringify(message)}`)
              pending = undefined
              return done()
            }
          }
          stdout.write(chunk, () => done())
        },
      })
      return {input, output}
    },
  }
}

/** The id and requested revision of a well-formed `initialize` request (the SDK's schema, in short), else undefined. */
function parseInitialize(line: string): {id: Id; protocolVersion: string} | undefined {
  const m = parseJson(line)
  const params = m?.params as Record<string, unknown> | undefined
  const client = params?.clientInfo as Record<string, unknown> | undefined
  const id = m?.id
  if (m?.jsonrpc !== '2.0' || m.method !== 'initialize' || !(typeof id === 'string' || Number.isInteger(id))) return
  if (typeof params?.protocolVersion !== 'string' || !isObject(params.capabilities)) return
  if (!isObject(client) || typeof client.name !== 'string' || typeof client.version !== 'string') return
  return {id: id as Id, protocolVersion: params.protocolVersion}
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text)
    return isObject(v) ? v : undefined
  } catch {
    return undefined
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Equal as JSON, whatever the order of keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k])]),
          )
        : v
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))
}
