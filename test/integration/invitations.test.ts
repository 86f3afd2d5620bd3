import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {errorOf} from '../helpers/cli.js'
import {svcInProcess as svc} from '../helpers/run-command.js'
import {startSandbox, type TestSandbox} from '../helpers/sandbox.js'

let sbx: TestSandbox
let inviter: string
beforeAll(async () => {
  sbx = await startSandbox()
  const c = await svc(
    ['customers', 'create', '--type', 'individual', '--full-name', 'Ada Inviter', '--currency', 'USD', '--json'],
    {env: sbx.env},
  )
  inviter = c.json().umaAddress
})
afterAll(async () => sbx.stop())

const stored = (code: string) => sbx.emu.db.get<Record<string, unknown>>('invitations', code)

describe('svc invitations', () => {
  it('journey: create -> get -> claim (webhook INVITATION.CLAIMED) -> a second claim is refused (exit 6), nothing changes', async () => {
    const created = await sbx.run([
      'invitations',
      'create',
      '--inviter-uma',
      inviter,
      '--first-name',
      'Ada',
      '--amount-minor',
      '1250',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    const inv = created.json()
    expect(inv).toMatchObject({
      inviterUma: inviter,
      status: 'PENDING',
      firstName: 'Ada',
      amountToSend: {amount: 1250, currency: {code: 'USD'}},
    })
    expect(inv.url).toBe(`https://sandbox.uma.local/i/${inv.code}`)
    expect((await sbx.run(['invitations', 'get', inv.code, '--json'])).json()).toMatchObject({
      code: inv.code,
      status: 'PENDING',
    })

    const claimed = await sbx.run(['invitations', 'claim', inv.code, '--invitee-uma', '$grace@example.com', '--json'])
    expect(claimed.code, claimed.stderr).toBe(0)
    expect(claimed.json()).toMatchObject({code: inv.code, status: 'CLAIMED', inviteeUma: '$grace@example.com'})
    const events = sbx.emu.webhooks
      .stored('INVITATION.CLAIMED')
      .map((e) => e.event.data as {code: string; status: string})
    expect(events.filter((d) => d.code === inv.code)).toEqual([
      expect.objectContaining({code: inv.code, status: 'CLAIMED', inviteeUma: '$grace@example.com'}),
    ])

    const before = stored(inv.code)
    const again = await sbx.run(['invitations', 'claim', inv.code, '--invitee-uma', '$mallory@example.com', '--json'])
    expect(again.code).toBe(6)
    expect(errorOf(again)).toMatchObject({
      status: 400,
      code: 'INVITATION_ALREADY_CLAIMED',
      hint: 'This invitation was used already; create a new one.',
    })
    const cancelClaimed = await sbx.run(['invitations', 'cancel', inv.code, '--yes', '--json'])
    expect(cancelClaimed.code).toBe(6)
    expect(errorOf(cancelClaimed).code).toBe('INVITATION_ALREADY_CLAIMED')
    expect(stored(inv.code)).toEqual(before)
    expect(
      sbx.emu.webhooks.stored('INVITATION.CLAIMED').filter((e) => (e.event.data as {code: string}).code === inv.code),
    ).toHaveLength(1)
  })

  it('a cancelled invitation refuses a claim (INVITATION_CANCELLED, exit 6); unknown codes are 404 (exit 5)', async () => {
    const inv = (await sbx.run(['invitations', 'create', '--inviter-uma', inviter, '--json'])).json()
    const cancelled = await sbx.run(['invitations', 'cancel', inv.code, '--yes', '--json'])
    expect(cancelled.json()).toMatchObject({code: inv.code, status: 'CANCELLED'})
    const before = stored(inv.code)
    const claim = await sbx.run(['invitations', 'claim', inv.code, '--invitee-uma', '$grace@example.com', '--json'])
    expect(claim.code).toBe(6)
    expect(errorOf(claim)).toMatchObject({
      status: 400,
      code: 'INVITATION_CANCELLED',
      hint: 'This invitation was cancelled; create a new one.',
    })
    expect(stored(inv.code)).toEqual(before)
    const unknown = await sbx.run(['invitations', 'get', 'ffffffffffff', '--json'])
    expect(unknown.code).toBe(5)
    expect(errorOf(unknown)).toMatchObject({
      status: 404,
      code: 'INVITATION_NOT_FOUND',
      hint: 'Check the invitation code.',
    })
  })

  it('an invitation past its expiresAt reads EXPIRED and refuses a claim, unchanged', async () => {
    const inv = (
      await sbx.run([
        'invitations',
        'create',
        '--inviter-uma',
        inviter,
        '--expires-at',
        new Date(Date.now() + 3_600_000).toISOString(),
        '--json',
      ])
    ).json()
    // Move its expiry into the past in the store rather than wait for it.
    sbx.emu.db.put('invitations', inv.code, {...stored(inv.code), expiresAt: new Date(Date.now() - 1000).toISOString()})
    expect((await sbx.run(['invitations', 'get', inv.code, '--json'])).json().status).toBe('EXPIRED')
    const before = stored(inv.code)
    const claim = await sbx.run(['invitations', 'claim', inv.code, '--invitee-uma', '$grace@example.com', '--json'])
    expect(claim.code).toBe(6)
    expect(errorOf(claim)).toMatchObject({
      status: 400,
      code: 'INVITATION_EXPIRED',
      hint: 'This invitation expired; create a new one.',
    })
    expect(stored(inv.code)).toEqual(before)
  })

  it('bad input is refused before any request, naming each field (exit 2)', async () => {
    const before = {requests: sbx.requestCount(), n: sbx.emu.db.count('invitations')}
    const cases: Array<[string[], string[]]> = [
      [
        [
          'invitations',
          'create',
          '--inviter-uma',
          'ada@example.com',
          '--amount-minor',
          '12.50',
          '--expires-at',
          'tomorrow',
          '--json',
        ],
        ['inviterUma', 'amountToSend', 'expiresAt'],
      ],
      [['invitations', 'claim', 'abc', '--invitee-uma', '$g@example.com', '--json'], ['invitationCode']],
      [['invitations', 'claim', 'abcdef12', '--invitee-uma', 'grace', '--json'], ['inviteeUma']],
      [['invitations', 'cancel', 'bad code!', '--yes', '--json'], ['invitationCode']],
    ]
    for (const [args, fields] of cases) {
      const r = await sbx.run(args)
      expect(r.code, args.join(' ')).toBe(2)
      const e = errorOf(r)
      expect(e.code).toBe('INVALID_INPUT')
      expect((e.details.errors as Array<{field: string}>).map((x) => x.field).sort()).toEqual(fields.sort())
    }
    expect(sbx.requestCount()).toBe(before.requests)
    expect(sbx.emu.db.count('invitations')).toBe(before.n)
  })

  it('a platform without invitations answers INVITATIONS_NOT_CONFIGURED and stores nothing', async () => {
    const off = await sbx.run([
      'api',
      'PATCH',
      '/config',
      '--data',
      '{"sandbox":{"invitationsEnabled":false}}',
      '--json',
    ])
    expect(off.code, off.stderr).toBe(0)
    const n = sbx.emu.db.count('invitations')
    const r = await sbx.run(['invitations', 'create', '--inviter-uma', inviter, '--json'])
    expect(r.code).toBe(1)
    expect(errorOf(r)).toMatchObject({status: 400, code: 'INVITATIONS_NOT_CONFIGURED'})
    expect(errorOf(r).hint).toMatch(/not enabled for this platform/)
    expect(sbx.emu.db.count('invitations')).toBe(n)
    await sbx.run(['api', 'PATCH', '/config', '--data', '{"sandbox":{"invitationsEnabled":true}}'])
  })
})
