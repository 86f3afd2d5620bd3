import {SvcError} from '../errors.js'
import {ExitCode} from '../exit-codes.js'
import type {TrustedCa} from './dispatcher.js'

/** OpenSSL's verdicts, grouped by what the operator does about them. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'CERT_REJECTED',
])
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST'])

const TRUST_OPTIONS =
  'trust the CA that issued it with --ca-file <ca.pem> (or SVC_CA_FILE, or NODE_EXTRA_CA_CERTS), and keep it in a profile with `svc login --ca-file <ca.pem>`; a sandbox served with --tls names its CA as caFile in its ready line'

/**
 * A failed TLS handshake as the operator's problem (exit 9): untrusted, expired, not yet valid,
 * wrong host, or a server that does not speak TLS, each with what fixes it. OpenSSL's code stays
 * in details.tlsCode for whoever searches for it. Undefined for failures that are not TLS's.
 */
export function explainTlsError(
  error: Error & {code?: string; reason?: string; host?: string; cert?: {subjectaltname?: string}},
  info: {origin: string; ca?: TrustedCa},
): SvcError | undefined {
  const code = error.code ?? ''
  const host = new URL(info.origin).host
  const trusted = info.ca ? ` (trusting the system's CAs and ${info.ca.file} from ${info.ca.from})` : ''
  const details = {host, tlsCode: code, ...(info.ca ? {caFile: info.ca.file, caFrom: info.ca.from} : {})}
  const make = (problem: string, message: string, hint: string) =>
    new SvcError({code: 'TLS_ERROR', exitCode: ExitCode.NETWORK, message, details: {problem, ...details}, hint})
  if (UNTRUSTED.has(code))
    return make(
      'untrusted',
      `The certificate of ${host} is not trusted: no trusted CA issued it${trusted}`,
      info.ca
        ? `${info.ca.file} (${info.ca.from}) is not the CA that issued this certificate: point --ca-file (or SVC_CA_FILE) at the one that did.`
        : `If you trust this server, ${TRUST_OPTIONS}.`,
    )
  if (code === 'CERT_HAS_EXPIRED')
    return make(
      'expired',
      `The certificate of ${host} has expired (this machine's clock reads ${new Date().toISOString()})`,
      'The server must renew it (a local sandbox renews its own at start: `svc sandbox stop`, then `svc sandbox serve --tls --detach`); if the certificate is current, set this clock right (`svc doctor` measures the skew).',
    )
  if (code === 'CERT_NOT_YET_VALID')
    return make(
      'not yet valid',
      `The certificate of ${host} is not valid yet (this machine's clock reads ${new Date().toISOString()})`,
      "Check this machine's clock (`svc doctor` measures the skew), or wait until the certificate's start date.",
    )
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (error.cert?.subjectaltname ?? '').replace(/DNS:|IP Address:/g, '')
    return make(
      'wrong host',
      `The certificate of ${host} is for another host${names ? `: it names ${names}` : ''}`,
      names
        ? `Use a --base-url (or SVC_BASE_URL) whose host the certificate names (${names.split(', ')[0]}), or have the certificate reissued for ${new URL(info.origin).hostname}.`
        : `Use a --base-url whose host the certificate names, or have it reissued for ${new URL(info.origin).hostname}.`,
    )
  }
  if (NOT_TLS.has(code))
    return make(
      'not TLS',
      `${host} does not speak TLS (${error.reason ?? code})`,
      `Use http:// in --base-url (or SVC_BASE_URL) if the server serves plain HTTP, or check the port.`,
    )
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || /^CERT_|_CERT/.test(code))
    return make(
      'handshake failed',
      `The TLS handshake with ${host} failed: ${error.reason ?? error.message}`,
      'Check the base URL, the server certificate and any TLS-inspecting proxy; --debug traces the connection.',
    )
  return undefined
}

/** The --debug line for a TLS session: protocol, cipher, the server certificate's names and dates, the trust used. No secret is in any of it. */
export function describeTlsSession(socket: import('node:tls').TLSSocket, ca?: TrustedCa): string {
  const cert = socket.getPeerCertificate()
  const name = (n: {CN?: string | string[]} | undefined) => (n?.CN ? `CN=${String(n.CN)}` : '?')
  const parts = [
    `TLS ${socket.getProtocol() ?? '?'} ${socket.getCipher()?.name ?? ''}`.trim(),
    `certificate ${name(cert?.subject)} issued by ${name(cert?.issuer)}`,
    cert?.subjectaltname ? `for ${cert.subjectaltname}` : '',
    cert?.valid_to ? `valid until ${new Date(cert.valid_to).toISOString()}` : '',
    `trusted by the system's CAs${ca ? ` and ${ca.file} (${ca.from})` : ''}`,
  ]
  return parts.filter(Boolean).join('; ')
}
