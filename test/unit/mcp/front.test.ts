// The early answer to `initialize` (src/lib/mcp/front.ts) against the SDK's own Server: the same
// answer, the same negotiation, and a hand-over that gives the Server every message and drops
// only its second answer to the `initialize` already answered.
import {PassThrough, Writable} from 'node:stream'
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
import {SUPPORTED_PROTOCOL_VERSIONS} from '@modelcontextprotocol/sdk/types.js'
import {describe, expect, it} from 'vitest'
import {startFront} from '../../../src/lib/mcp/front.js'
import {CAPABILITIES, INSTRUCTIONS, PROTOCOL_VERSIONS, SERVER_NAME} from '../../../src/lib/mcp/identity.js'

const initialize = (id: number | string, protocolVersion: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {protocolVersion, capabilities: {}, clientInfo: {name: 'test', version: '0'}},
  }) + '\n'

/** A front on fake stdio; `written()` is every line it (and then the Server) wrote, parsed. */
function fakeStdio() {
  const stdin = new PassThrough()
  const lines: string[] = []
  const stdout = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean))
      done()
    },
  })
  return {stdin, stdout, written: () => lines.map((l) => JSON.parse(l))}
}

/** The SDK's Server as `svc mcp` builds it, on the front's streams; resolves with what it logged. */
async function serverOn(front: ReturnType<typeof startFront>, version = '9.9.9') {
  const log: string[] = []
  const {input, output} = front.handOver((why) => log.push(why))
  const server = new Server({name: SERVER_NAME, version}, {capabilities: CAPABILITIES, instructions: INSTRUCTIONS})
  await server.connect(new StdioServerTransport(input, output))
  return {server, log}
}

const settled = () => new Promise((r) => setTimeout(r, 50))

describe('the early answer to initialize', () => {
  it('speaks the protocol revisions the SDK speaks', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS)
  })

  it.each(['2025-06-18', '2024-11-05', '1999-01-01'])(
    'answers initialize (%s) before the Server loads, exactly as the Server does, and the Server answers the rest',
    async (revision) => {
      const io = fakeStdio()
      const front = startFront('9.9.9', io.stdin, io.stdout)
      io.stdin.write(initialize(7, revision))
      io.stdin.write(
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":8,"method":"ping"}\n',
      )
      await front.firstMessage
      const early = io.written()
      expect(early).toHaveLength(1)
      expect(early[0]).toMatchObject({id: 7, result: {serverInfo: {name: 'svc', version: '9.9.9'}}})
      expect(early[0].result.protocolVersion).toBe(revision === '1999-01-01' ? PROTOCOL_VERSIONS[0] : revision)
      const {server, log} = await serverOn(front)
      io.stdin.write('{"jsonrpc":"2.0","id":9,"method":"ping"}\n')
      await settled()
      // The Server's own answer to id 7 matched the early one (no log line) and was dropped.
      expect(log).toEqual([])
      expect(io.written().map((m) => m.id)).toEqual([7, 8, 9])
      expect(server.getClientVersion()).toEqual({name: 'test', version: '0'})
    },
  )

  it('logs a difference between its answer and the Server’s', async () => {
    const io = fakeStdio()
    const front = startFront('1.0.0', io.stdin, io.stdout)
    io.stdin.write(initialize('a', '2025-06-18'))
    await front.firstMessage
    const {log} = await serverOn(front, '2.0.0')
    await settled()
    expect(log).toEqual([expect.stringContaining('differs from the SDK')])
    expect(io.written()).toHaveLength(1)
  })

  it.each([
    ['another request first', '{"jsonrpc":"2.0","id":1,"method":"ping"}\n'],
    [
      'initialize without clientInfo',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}\n',
    ],
    ['not JSON', 'hello\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'],
  ])('leaves %s to the Server', async (_what, text) => {
    const io = fakeStdio()
    const front = startFront('9.9.9', io.stdin, io.stdout)
    io.stdin.write(text)
    await front.firstMessage
    expect(io.written()).toEqual([])
    await serverOn(front)
    await settled()
    expect(io.written().length).toBeGreaterThan(0)
    for (const m of io.written()) expect(m.result?.serverInfo).toBeUndefined()
  })

  it('settles when stdin ends before a whole line', async () => {
    const io = fakeStdio()
    const front = startFront('9.9.9', io.stdin, io.stdout)
    io.stdin.end('{"jsonrpc"')
    await front.firstMessage
    expect(io.written()).toEqual([])
  })
})
