import {request} from 'undici'
import {bytesToHex, encryptOtpBundle, generateP256KeyPair, stamp, type P256KeyPair} from '../../src/lib/wallet/index.js'
import type {TestSandbox} from './sandbox.js'

/**
 * A tiny wallet client for driving the local enclave over real HTTP (not the CLI): raw bodies are
 * sent byte for byte so tests can tamper with exactly one thing at a time.
 */
export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
}

export interface Session {
  id: string
  key: P256KeyPair
  body: any
}

export class EnclaveClient {
  constructor(readonly sbx: TestSandbox) {}

  private get auth(): string {
    const {tokenId, clientSecret} = this.sbx.emu.credentials
    return 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`).toString('base64')
  }

  async call(
    method: string,
    path: string,
    opts: {body?: unknown; raw?: string; headers?: Record<string, string>} = {},
  ): Promise<Answer> {
    const raw = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
    const res = await request(this.sbx.url + path, {
      method: method as 'GET',
      body: raw,
      headers: {
        authorization: this.auth,
        ...(raw !== undefined ? {'content-type': 'application/json'} : {}),
        ...opts.headers,
      },
    })
    const text = await res.body.text()
    return {status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined}
  }

  /** Leg 1 → stamp with `signer` → leg 2 with the identical bytes; returns both answers. */
  async signed(
    method: string,
    path: string,
    body: unknown,
    signer: P256KeyPair,
  ): Promise<{leg1: Answer; leg2: Answer; raw: string | undefined; stampHeader: string}> {
    const raw = body === undefined ? undefined : JSON.stringify(body)
    const leg1 = await this.call(method, path, {raw})
    if (leg1.status !== 202)
      throw new Error(`leg 1 of ${method} ${path} answered ${leg1.status}: ${JSON.stringify(leg1.body)}`)
    const stampHeader = stamp(leg1.body.payloadToSign, signer.privateKey)
    const leg2 = await this.call(method, path, {
      raw,
      headers: {'service-wallet-signature': stampHeader, 'request-id': leg1.body.requestId},
    })
    return {leg1, leg2, raw, stampHeader}
  }

  async createCustomer(
    fields: Record<string, unknown> = {},
  ): Promise<{customerId: string; accountId: string; emailCredentialId?: string}> {
    const r = await this.call('POST', '/customers', {
      body: {
        customerType: 'INDIVIDUAL',
        fullName: 'Wallet Holder',
        email: `h${Math.random().toString(36).slice(2, 9)}@example.com`,
        ...fields,
      },
    })
    if (r.status !== 201) throw new Error(`customer create answered ${r.status}: ${JSON.stringify(r.body)}`)
    const account = this.sbx.emu.db
      .all<{id: string; type: string; customerId: string}>('internalAccounts')
      .find((a) => a.type === 'EMBEDDED_WALLET' && a.customerId === r.body.id)
    if (!account) throw new Error('no embedded wallet was provisioned')
    const creds = await this.call('GET', `/auth/credentials?accountId=${encodeURIComponent(account.id)}`)
    return {
      customerId: r.body.id,
      accountId: account.id,
      emailCredentialId: creds.body.data.find((c: {type: string}) => c.type === 'EMAIL_OTP')?.id,
    }
  }

  async quorumKey(): Promise<string> {
    return (await this.call('GET', '/sandbox/quorum-public-key')).body.publicKey
  }

  /** EMAIL_OTP / SMS_OTP login: challenge, seal {otp_code, public_key}, 202, stamp by the TEK, 200 session. */
  async otpLogin(credentialId: string, opts: {otp?: string; challenge?: boolean} = {}): Promise<Session> {
    let bundle: string | undefined
    if (opts.challenge !== false) {
      const ch = await this.call('POST', `/auth/credentials/${credentialId}/challenge`)
      if (ch.status !== 200) throw new Error(`challenge answered ${ch.status}: ${JSON.stringify(ch.body)}`)
      bundle = ch.body.otpEncryptionTargetBundle
    }
    const key = generateP256KeyPair()
    const type = this.sbx.emu.db.get<{type: string}>('walletCredentials', credentialId)!.type
    const encryptedOtpBundle = await encryptOtpBundle({
      targetBundle: bundle!,
      otpCode: opts.otp ?? '000000',
      publicKey: bytesToHex(key.publicKeyCompressed),
      pinnedQuorumKey: await this.quorumKey(),
    })
    const {leg2} = await this.signed(
      'POST',
      `/auth/credentials/${credentialId}/verify`,
      {type, encryptedOtpBundle},
      key,
    )
    if (leg2.status !== 200) throw new Error(`verify leg 2 answered ${leg2.status}: ${JSON.stringify(leg2.body)}`)
    return {id: leg2.body.id, key, body: leg2.body}
  }

  async setSandbox(settings: Record<string, unknown>): Promise<void> {
    const r = await this.call('PATCH', '/config', {body: {sandbox: settings}})
    if (r.status !== 200) throw new Error(`PATCH /config answered ${r.status}: ${JSON.stringify(r.body)}`)
  }
}
