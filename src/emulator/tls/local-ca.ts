import {X509Certificate} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ensurePrivateDir, writePrivateFileAtomic} from '../../lib/fs-safe.js'
import {sandboxCaFile, sandboxTlsDir} from '../../lib/sandbox-process.js'
import type {TlsIdentity} from '../listener.js'
import {issueServerCert, makeCa, type CertAndKey} from './x509.js'
import {machineTime} from '../clock.js'

const DAY = 86_400_000
/** The names a local sandbox is reached by. */
export const SANDBOX_HOSTS = ['127.0.0.1', 'localhost', '::1']
const CA_DAYS = 3650
const SERVER_DAYS = 397
/** A server certificate this close to its end is renewed at start, so a running sandbox never serves an expired one for long. */
const RENEW_DAYS = 30

/**
 * `serve --tls`: the sandbox's own CA and server certificate, in <dataDir>/tls (0700, files 0600),
 * made on the first start and kept, so that a CA the operator trusted once stays trusted. The
 * server certificate is reissued at start when it is near its end or was not issued by this CA.
 * Machine time, not the sandbox clock: clients check certificates against their own clocks.
 */
export function sandboxTls(dataDir: string, now = machineTime()): TlsIdentity & {caFile: string} {
  const dir = sandboxTlsDir(dataDir)
  ensurePrivateDir(dir)
  const caFile = sandboxCaFile(dataDir)
  const caKeyFile = join(dir, 'ca-key.pem')
  const certFile = join(dir, 'server.pem')
  const keyFile = join(dir, 'server-key.pem')
  let ca = read(caFile, caKeyFile)
  if (!ca || !current(ca, now)) {
    ca = makeCa({commonName: 'svc local sandbox CA', ...validity(now, CA_DAYS)})
    write(caFile, caKeyFile, ca)
  }
  let server = read(certFile, keyFile)
  if (!server || !current(server, now) || !new X509Certificate(server.cert).checkIssued(new X509Certificate(ca.cert))) {
    server = issueServerCert(ca, SANDBOX_HOSTS, {commonName: 'svc local sandbox', ...validity(now, SERVER_DAYS)})
    write(certFile, keyFile, server)
  }
  return {cert: server.cert, key: server.key, caFile}
}

function validity(now: number, days: number) {
  // A minute back: a client whose clock is a little behind still accepts a certificate made just now.
  return {notBefore: new Date(now - 60_000), notAfter: new Date(now + days * DAY)}
}

function current(c: CertAndKey, now: number): boolean {
  return Date.parse(new X509Certificate(c.cert).validTo) - now > RENEW_DAYS * DAY
}

function read(certFile: string, keyFile: string): CertAndKey | undefined {
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined
  return {cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8')}
}

function write(certFile: string, keyFile: string, c: CertAndKey): void {
  writePrivateFileAtomic(keyFile, c.key)
  writePrivateFileAtomic(certFile, c.cert)
}
