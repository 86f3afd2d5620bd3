import {createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate} from 'node:crypto'
import {isIP} from 'node:net'

/**
 * Just enough X.509 (RFC 5280) to give the local sandbox a CA and a server certificate: Node can
 * read certificates (X509Certificate) but not make them, and no dependency is worth it for ~150
 * lines of DER. Keys are ECDSA P-256, signatures ecdsa-with-SHA256, made by node:crypto.
 */

export interface CertAndKey {
  /** PEM certificate. */
  cert: string
  /** PEM PKCS#8 private key. */
  key: string
}

export interface CertOptions {
  commonName: string
  notBefore: Date
  notAfter: Date
}

/** A self-signed CA that may only sign end-entity certificates (pathLen 0). */
export function makeCa(opts: CertOptions): CertAndKey {
  const {privateKey, publicKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
  const spki = publicKey.export({type: 'spki', format: 'der'})
  const name = encodeName(opts.commonName)
  const ski = keyId(spki)
  const extensions = [
    extension(OID.basicConstraints, true, seq(bool(true), int(Buffer.from([0])))),
    extension(OID.keyUsage, true, keyUsage(KEY_CERT_SIGN | CRL_SIGN)),
    extension(OID.subjectKeyIdentifier, false, octets(ski)),
  ]
  const der = signedCert({issuer: name, subject: name, spki, extensions, opts}, privateKey)
  return {cert: pem('CERTIFICATE', der), key: privateKey.export({type: 'pkcs8', format: 'pem'}) as string}
}

/** A server certificate for `hosts` (names and IP addresses), issued by `ca`. */
export function issueServerCert(ca: CertAndKey, hosts: string[], opts: CertOptions): CertAndKey {
  const caCert = new X509Certificate(ca.cert)
  const caKey = createPrivateKey(ca.key)
  const {privateKey, publicKey} = generateKeyPairSync('ec', {namedCurve: 'P-256'})
  const spki = publicKey.export({type: 'spki', format: 'der'})
  const caSpki = caCert.publicKey.export({type: 'spki', format: 'der'})
  const altNames = hosts.map((h) => (isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, Buffer.from(h, 'ascii'))))
  const extensions = [
    extension(OID.basicConstraints, true, seq()),
    extension(OID.keyUsage, true, keyUsage(DIGITAL_SIGNATURE)),
    extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth))),
    extension(OID.subjectAltName, false, seq(...altNames)),
    extension(OID.subjectKeyIdentifier, false, octets(keyId(spki))),
    extension(OID.authorityKeyIdentifier, false, seq(tlv(0x80, keyId(caSpki)))),
  ]
  const der = signedCert(
    {issuer: subjectOf(caCert.raw), subject: encodeName(opts.commonName), spki, extensions, opts},
    caKey,
  )
  return {cert: pem('CERTIFICATE', der), key: privateKey.export({type: 'pkcs8', format: 'pem'}) as string}
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  subjectAltName: '2.5.29.17',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
}
// keyUsage bits, numbered from the most significant bit of the first byte (RFC 5280 4.2.1.3).
const DIGITAL_SIGNATURE = 0x80
const KEY_CERT_SIGN = 0x04
const CRL_SIGN = 0x02

function signedCert(
  c: {issuer: Buffer; subject: Buffer; spki: Buffer; extensions: Buffer[]; opts: CertOptions},
  key: import('node:crypto').KeyObject,
): Buffer {
  const algorithm = seq(oid(OID.ecdsaWithSha256))
  // A positive 127-bit serial, unique enough that no two certificates of one CA share it.
  const serial = randomBytes(16)
  serial[0]! &= 0x7f
  const tbs = seq(
    tlv(0xa0, int(Buffer.from([2]))), // v3
    int(serial),
    algorithm,
    c.issuer,
    seq(time(c.opts.notBefore), time(c.opts.notAfter)),
    c.subject,
    c.spki,
    tlv(0xa3, seq(...c.extensions)),
  )
  return seq(tbs, algorithm, bitString(sign('sha256', tbs, key)))
}

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length
  const len = n < 0x80 ? Buffer.from([n]) : Buffer.concat([Buffer.from([0x80 | byteLength(n)]), uintBytes(n)])
  return Buffer.concat([Buffer.from([tag]), len, content])
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items))
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items))
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]))
const octets = (b: Buffer) => tlv(0x04, b)
const bitString = (b: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]))

/** A non-negative INTEGER: a leading zero byte keeps a high first bit from reading as negative. */
function int(b: Buffer): Buffer {
  let i = 0
  while (i < b.length - 1 && b[i] === 0 && !(b[i + 1]! & 0x80)) i++
  const v = b.subarray(i)
  return tlv(0x02, v[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v)
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number)
  const bytes = [a! * 40 + b!]
  for (const n of rest) {
    const chunk = [n & 0x7f]
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift(0x80 | (v & 0x7f))
    bytes.push(...chunk)
  }
  return tlv(0x06, Buffer.from(bytes))
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z'
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso))
}

function encodeName(commonName: string): Buffer {
  return seq(set(seq(oid(OID.commonName), tlv(0x0c, Buffer.from(commonName, 'utf8')))))
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value))
}

/** A named-bit BIT STRING in DER: trailing zero bits are not encoded. */
function keyUsage(bits: number): Buffer {
  let unused = 0
  while (unused < 7 && !(bits & (1 << unused))) unused++
  return bitString(Buffer.from([bits]), unused)
}

function keyId(spki: Buffer): Buffer {
  return createHash('sha1').update(spki).digest()
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number))
  const [head, tail = ''] = ip.split('::')
  const h = head ? head.split(':') : []
  const t = ip.includes('::') && tail ? tail.split(':') : []
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h
  return Buffer.concat(groups.map((g) => uintBytes(parseInt(g || '0', 16), 2)))
}

function byteLength(n: number): number {
  let bytes = 1
  while (n >= 256 ** bytes) bytes++
  return bytes
}

function uintBytes(n: number, width = byteLength(n)): Buffer {
  const b = Buffer.alloc(width)
  for (let i = width - 1; i >= 0; i--, n = Math.floor(n / 256)) b[i] = n % 256
  return b
}

function pem(label: string, der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n')
  return `-----BEGIN ${label}-----\n${b64.replace(/\n$/, '')}\n-----END ${label}-----\n`
}

/** The subject Name of a DER certificate, byte for byte (the issuer of what it signs must match it exactly). */
function subjectOf(der: Buffer): Buffer {
  const read = (buf: Buffer, at: number) => {
    let len = buf[at + 1]!
    let header = 2
    if (len & 0x80) {
      const n = len & 0x7f
      len = buf.subarray(at + 2, at + 2 + n).reduce((v, byte) => v * 256 + byte, 0)
      header += n
    }
    return {start: at + header, end: at + header + len}
  }
  const tbs = read(der, read(der, 0).start)
  // version [0], serial, signature algorithm, issuer, validity, subject
  let at = tbs.start
  for (let i = 0; i < 5; i++) at = read(der, at).end
  return der.subarray(at, read(der, at).end)
}
