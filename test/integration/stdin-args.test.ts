// oclif fills an omitted optional argument from a piped stdin. A script's unrelated input (or the OTP
// `wallet login --otp-stdin` reads itself) became the argument, and every run of such a command
// loaded stdin's stream and waited for it. svc's optional arguments ignore stdin.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {svc} from '../helpers/cli.js'

const home = mkdtempSync(join(tmpdir(), 'svc-stdin-args-'))
afterAll(() => rmSync(home, {recursive: true, force: true}))
const env = {HOME: home, SVC_CONFIG_DIR: join(home, 'config'), CI: '1', SVC_NO_INPUT: '1', NO_COLOR: '1'}

describe('optional arguments are never read from stdin', () => {
  it('wallet keys list with unrelated stdin lists every key instead of refusing the text as ACCOUNTID', async () => {
    const r = await svc(['wallet', 'keys', 'list', '--json'], {env, input: 'not-an-id\n'})
    expect({code: r.code, stderr: r.stderr}).toEqual({code: 0, stderr: ''})
    expect(r.json()).toEqual({data: []})
  })
})
