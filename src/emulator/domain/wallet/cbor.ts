/**
 * The slice of CBOR (RFC 8949) that WebAuthn needs: unsigned/negative integers, byte and text
 * strings, arrays, maps, false/true/null; definite lengths only. No listed dependency decodes CBOR,
 * and attestation objects and COSE keys use nothing else. The encoder serves software
 * authenticators and tests.
 */
export type CborValue = number | Uint8Array | string | CborValue[] | Map<CborValue, CborValue> | boolean | null

export class CborError extends Error {}

/** Decodes one item at `offset`; returns it and the offset just past it. */
export function decodeCborItem(bytes: Uint8Array, offset = 0): {value: CborValue; end: number} {
  let pos = offset
  const need = (n: number) => {
    if (pos + n > bytes.length) throw new CborError('truncated CBOR')
  }
  const readArg = (info: number): number => {
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (size === 0)
      throw new CborError(`unsupported CBOR length encoding ${info} (indefinite lengths are not used by WebAuthn)`)
    need(size)
    let n = 0
    for (let i = 0; i < size; i++) n = n * 256 + bytes[pos + i]
    pos += size
    if (!Number.isSafeInteger(n)) throw new CborError('CBOR integer too large')
    return n
  }
  const item = (depth: number): CborValue => {
    if (depth > 16) throw new CborError('CBOR nested too deeply')
    need(1)
    const head = bytes[pos++]
    const major = head >> 5
    const info = head & 31
    switch (major) {
      case 0:
        return readArg(info)
      case 1:
        return -1 - readArg(info)
      case 2:
      case 3: {
        const n = readArg(info)
        need(n)
        const chunk = bytes.slice(pos, pos + n)
        pos += n
        return major === 2 ? chunk : new TextDecoder('utf-8', {fatal: true}).decode(chunk)
      }
      case 4: {
        const n = readArg(info)
        const out: CborValue[] = []
        for (let i = 0; i < n; i++) out.push(item(depth + 1))
        return out
      }
      case 5: {
        const n = readArg(info)
        const out = new Map<CborValue, CborValue>()
        for (let i = 0; i < n; i++) {
          const key = item(depth + 1)
          out.set(key, item(depth + 1))
        }
        return out
      }
      case 7:
        if (info === 20) return false
        if (info === 21) return true
        if (info === 22) return null
        throw new CborError(`unsupported CBOR simple value ${info}`)
      default:
        throw new CborError(`unsupported CBOR major type ${major}`)
    }
  }
  const value = item(0)
  return {value, end: pos}
}

/** Decodes a whole buffer: trailing bytes are an error. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const {value, end} = decodeCborItem(bytes)
  if (end !== bytes.length) throw new CborError(`${bytes.length - end} trailing byte(s) after the CBOR item`)
  return value
}

export function encodeCbor(value: CborValue): Uint8Array {
  const out: number[] = []
  const head = (major: number, n: number) => {
    if (n < 24) out.push((major << 5) | n)
    else if (n < 0x100) out.push((major << 5) | 24, n)
    else if (n < 0x10000) out.push((major << 5) | 25, n >> 8, n & 0xff)
    else out.push((major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff)
  }
  const put = (v: CborValue): void => {
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || Math.abs(v) > 0xffffffff) throw new CborError('only 32-bit integers are encoded')
      if (v >= 0) head(0, v)
      else head(1, -1 - v)
    } else if (v instanceof Uint8Array) {
      head(2, v.length)
      out.push(...v)
    } else if (typeof v === 'string') {
      const b = new TextEncoder().encode(v)
      head(3, b.length)
      out.push(...b)
    } else if (Array.isArray(v)) {
      head(4, v.length)
      v.forEach(put)
    } else if (v instanceof Map) {
      head(5, v.size)
      for (const [k, x] of v) {
        put(k)
        put(x)
      }
    } else if (v === false) out.push(0xf4)
    else if (v === true) out.push(0xf5)
    else out.push(0xf6)
  }
  put(value)
  return Uint8Array.from(out)
}
