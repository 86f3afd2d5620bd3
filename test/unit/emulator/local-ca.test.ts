import {X509Certificate} from 'node:crypto'
import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {sandboxTls} from '../../../src/emulator/tls/local-ca.js'
import {issueServerCert, makeCa} from '../../../src/emulator/tls/x509.js'
import {tempDir} from '../../helpers/temp-dirs.js'

const DAY = 86_400_000
const span = (from: number, to: number) => ({notBefore: new Date(from), notAfter: new Date(to)})

describe('x509.ts: certificates node:crypto reads back as made', () => {
  const now = Date.parse('2026-11-28T12:00:00Z')
  const ca = makeCa({commonName: 'svc local sandbox CA', ...span(now, now + 3650 * DAY)})
  const leaf = issueServerCert(ca, ['127.0.0.1', 'localhost', '::1'], {
    commonName: 'svc local sandbox',
    ...span(now, now + 397 * DAY),
  })
  const caCert = new X509Certificate(ca.cert)
  const cert = new X509Certificate(leaf.cert)

  it('a CA that signed itself, and a server certificate it issued and signed', () => {
    expect(caCert.ca).toBe(true)
    expect(caCert.subject).toBe('CN=svc local sandbox CA')
    expect(caCert.verify(caCert.publicKey)).toBe(true)
    expect(cert.ca).toBe(false)
    expect(cert.issuer).toBe('CN=svc local sandbox CA')
    expect(cert.checkIssued(caCert)).toBe(true)
    expect(cert.verify(caCert.publicKey)).toBe(true)
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1'])
  })

  it('names exactly the hosts asked for, and the dates', () => {
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1')
    expect(cert.checkHost('localhost')).toBe('localhost')
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(cert.checkIP('::1')).toBe('::1')
    expect(cert.checkHost('example.com')).toBeUndefined()
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-11-28T12:00:00.000Z')
    expect(new Date(cert.validTo).toISOString()).toBe(new Date(now + 397 * DAY).toISOString())
    // From 2050 the date is a GeneralizedTime (RFC 5280): read back the same.
    const late = makeCa({commonName: 'late', ...span(now, Date.parse('2051-01-02T03:04:05Z'))})
    expect(new Date(new X509Certificate(late.cert).validTo).toISOString()).toBe('2051-01-02T03:04:05.000Z')
  })

  it('a certificate from another CA is not taken for this one', () => {
    const other = makeCa({commonName: 'svc local sandbox CA', ...span(now, now + DAY)})
    expect(cert.checkIssued(new X509Certificate(other.cert))).toBe(false)
    expect(cert.verify(new X509Certificate(other.cert).publicKey)).toBe(false)
  })
})

describe('sandboxTls: the data dir keeps one CA; the server certificate is renewed near its end', () => {
  it('made once (0600 files in a 0700 dir), then reused as it is', () => {
    const dir = tempDir('svc-tls-')
    const first = sandboxTls(dir)
    expect(first.caFile).toBe(join(dir, 'tls', 'ca.pem'))
    for (const f of ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem'])
      expect(statSync(join(dir, 'tls', f)).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'tls')).mode & 0o777).toBe(0o700)
    const again = sandboxTls(dir)
    expect(again).toEqual(first)
  })

  it('a server certificate within 30 days of its end, or not issued by this CA, is reissued; the CA stays', () => {
    const dir = tempDir('svc-tls-')
    const first = sandboxTls(dir)
    const ca = readFileSync(first.caFile, 'utf8')
    const later = sandboxTls(dir, Date.now() + 380 * DAY)
    expect(readFileSync(later.caFile, 'utf8')).toBe(ca)
    expect(later.cert).not.toBe(first.cert)
    expect(new X509Certificate(later.cert).checkIssued(new X509Certificate(ca))).toBe(true)
    const stranger = makeCa({commonName: 'stranger', ...span(Date.now(), Date.now() + 10 * DAY)})
    writeFileSync(
      join(dir, 'tls', 'server.pem'),
      issueServerCert(stranger, ['127.0.0.1'], {commonName: 'x', ...span(Date.now(), Date.now() + 300 * DAY)}).cert,
    )
    const fixed = sandboxTls(dir)
    expect(new X509Certificate(fixed.cert).checkIssued(new X509Certificate(ca))).toBe(true)
  })
})
