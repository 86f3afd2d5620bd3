import {secp256k1} from '@noble/curves/secp256k1.js'
import {keccak_256} from '@noble/hashes/sha3.js'
import {hex} from '@scure/base'
import {createExternalAccount, createOwnershipChallenge, submitOwnershipSignature} from '../api/accounts.js'
import {uploadCustomerCsv} from '../api/bulk-import.js'
import {getCustomer} from '../api/customers.js'
import {claimInvitation, createInvitation} from '../api/invitations.js'
import {authMethodSchema, embeddedWalletIds, embeddedWalletsOf, listCredentials, walletOps} from '../api/wallet.js'
import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import {engineFor, envelopeTrust, memorySigner} from '../workflows/wallet/common.js'
import {bytesToHex, encryptOtpBundle, generateP256KeyPair} from '../wallet/index.js'
import type {Recipe} from './recipe.js'
import {byId} from './recipe.js'
import {individual} from './setup.js'

const utf8 = (s: string) => new TextEncoder().encode(s)
const setupFailed = (message: string) =>
  new SvcError({code: 'TRIGGER_SETUP_FAILED', exitCode: ExitCode.FAILED, message})

/**
 * EXTERNAL_ACCOUNT.STATUS_UPDATED: a customer's own Ethereum wallet (a key made for this run)
 * proves ownership (spec 4.1): challenge, EIP-191 personal_sign over messageToSign, verify -> ACTIVE.
 */
const ownershipVerified: Recipe = async (kit) => {
  const c = await individual(kit)
  const sk = secp256k1.utils.randomSecretKey()
  const address = '0x' + hex.encode(keccak_256(secp256k1.getPublicKey(sk, false).slice(1)).slice(12))
  const a = await kit.client.call(
    createExternalAccount({
      customerId: c.id!,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: {accountType: 'ETHEREUM_WALLET', address},
    }),
  )
  kit.did(`added ${c.id}'s own Ethereum wallet ${a.id} (${a.status})`)
  const challenge = await kit.client.call(createOwnershipChallenge(a.id, 'WALLET_SIGNATURE'))
  const message = utf8(String(challenge.messageToSign))
  const digest = keccak_256(new Uint8Array([...utf8(`\x19Ethereum Signed Message:\n${message.length}`), ...message]))
  const sig = secp256k1.sign(digest, sk, {prehash: false, format: 'recovered'})
  const verified = await kit.client.call(
    submitOwnershipSignature(a.id, '0x' + hex.encode(new Uint8Array([...sig.slice(1), sig[0] + 27]))),
  )
  kit.did(`signed the ownership challenge with the wallet's key: ${a.id} is ${verified.status}`)
  return {objectId: a.id, matches: (d) => d.id === a.id && d.status === 'ACTIVE'}
}

/**
 * wallet_operation.completed: an embedded-wallet OTP login (sandbox OTP 000000, real HPKE) whose
 * signed leg the wallet provider accepts but has not settled (spec 3 "Wallet operation"); the
 * identical signed request is re-sent until it settles. The local sandbox is told to answer
 * PROCESSING once (knob walletProcessingCount). The session key is kept in memory only: nothing is stored.
 */
const walletOperation: Recipe = async (kit) => {
  const c = await individual(kit)
  const [accountId] = embeddedWalletIds(await kit.client.call(embeddedWalletsOf(c.id!)))
  if (!accountId)
    throw setupFailed(`${c.id} has no EMBEDDED_WALLET internal account (embedded wallets are off in this sandbox)`)
  const credential = (await kit.client.call(listCredentials(accountId))).data.find((m) => m.type === 'EMAIL_OTP')
  if (!credential) throw setupFailed(`${accountId} has no EMAIL_OTP credential`)
  await kit.client.request({method: 'PATCH', path: ['config'], body: {sandbox: {walletProcessingCount: 1}}})
  kit.did('told the local sandbox to answer the next signed wallet request PROCESSING (walletProcessingCount 1)')
  const engine = engineFor(kit.ctx)
  const res = await engine.run(walletOps.challenge(credential.id), () => {
    throw setupFailed('The OTP challenge unexpectedly asked for a signature')
  })
  const targetBundle = kit.client.parse(authMethodSchema, res.body, 'OTP challenge').otpEncryptionTargetBundle
  if (!targetBundle) throw setupFailed('The OTP challenge carried no otpEncryptionTargetBundle')
  const target = generateP256KeyPair()
  const encryptedOtpBundle = await encryptOtpBundle({
    targetBundle,
    otpCode: '000000',
    publicKey: bytesToHex(target.publicKeyCompressed),
    ...(await envelopeTrust(kit.ctx)),
  })
  await engine.run(
    walletOps.verify(credential.id, {type: credential.type, encryptedOtpBundle}, accountId),
    memorySigner(target.privateKey),
  )
  kit.did(`logged in to ${accountId} with ${credential.id} (OTP); the signed request was re-sent until it settled`)
  return {objectId: credential.id, matches: (d) => d.resourceId === credential.id}
}

/** INVITATION.CLAIMED: a customer's UMA invitation is claimed by someone else's UMA address. */
const invitationClaimed: Recipe = async (kit) => {
  const created = await individual(kit)
  const inviterUma = (await kit.client.call(getCustomer(created.id!))).umaAddress
  if (!inviterUma) throw setupFailed(`${created.id} has no UMA address to invite from`)
  const inv = await kit.client.call(createInvitation({inviterUma, firstName: 'Grace'}))
  kit.did(`${inviterUma} created invitation ${inv.code}`)
  const claimed = await kit.client.call(claimInvitation(inv.code, `$grace-${kit.tag}@example.com`))
  kit.did(`invitation ${inv.code} claimed by ${String(claimed.inviteeUma)}`)
  return {objectId: inv.code, matches: (d) => d.code === inv.code}
}

/** BULK_UPLOAD.*: a one-row customer CSV; an unknown customerType makes its only row fail, so the job FAILS. */
const bulkUpload =
  (valid: boolean): Recipe =>
  async (kit) => {
    const csv = `platformCustomerId,customerType,fullName\n${kit.key('bulk')},${valid ? 'INDIVIDUAL' : 'ROBOT'},Ada Lovelace\n`
    const job = await kit.client.call(uploadCustomerCsv({name: 'customers.csv', bytes: utf8(csv)}))
    kit.did(`uploaded a one-row customer CSV${valid ? '' : ' whose row is invalid'}: job ${job.jobId}`)
    return {objectId: job.jobId, matches: byId(job.jobId)}
  }

export const otherRecipes: Record<string, Recipe> = {
  'EXTERNAL_ACCOUNT.STATUS_UPDATED': ownershipVerified,
  'wallet_operation.completed': walletOperation,
  'INVITATION.CLAIMED': invitationClaimed,
  'BULK_UPLOAD.COMPLETED': bulkUpload(true),
  'BULK_UPLOAD.FAILED': bulkUpload(false),
}
