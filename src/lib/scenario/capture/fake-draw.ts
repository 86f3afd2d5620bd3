import {createHash} from 'node:crypto'

/** Random draws for fakes, all from a deterministic generator so a seed reproduces a capture. */

/** A generator of numbers in [0, 1) that depends only on `input`: SHA-256 of it, re-hashed as needed. */
export function seededRng(input: string): () => number {
  let state = createHash('sha256').update(input).digest()
  let i = 0
  return () => {
    if (i + 4 > state.length) {
      state = createHash('sha256').update(state).digest()
      i = 0
    }
    const v = state.readUInt32BE(i) / 2 ** 32
    i += 4
    return v
  }
}

/**
 * Replaces every digit and letter between the kept head and tail with a random one of the same class
 * (hex strings stay lowercase hex), retrying until `valid` holds (up to 5000 tries).
 */
export function sameShape(
  r: () => number,
  original: string,
  keepHead: number,
  keepTail: number,
  valid: (v: string) => boolean,
): string | undefined {
  const hex = /^0x[0-9a-fA-F]+$/.test(original)
  for (let attempt = 0; attempt < 5000; attempt++) {
    let out = ''
    for (let i = 0; i < original.length; i++) {
      const c = original[i]
      if (i < keepHead || i >= original.length - keepTail || (hex && i < 2)) out += c
      else if (/\d/.test(c) && !hex) out += String(Math.floor(r() * 10))
      else if (hex && /[0-9a-fA-F]/.test(c)) out += '0123456789abcdef'[Math.floor(r() * 16)]
      else if (/[A-Z]/.test(c)) out += String.fromCharCode(65 + Math.floor(r() * 26))
      else if (/[a-z]/.test(c)) out += String.fromCharCode(97 + Math.floor(r() * 26))
      else out += c
    }
    if (out !== original && valid(out)) return out
  }
  return undefined
}

export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]
export const pad = (n: number) => String(n).padStart(2, '0')
export const digits = (r: () => number, n: number) => Array.from({length: n}, () => Math.floor(r() * 10)).join('')
