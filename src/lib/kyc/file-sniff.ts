/**
 * What a document file really is, from its first bytes (never from its name): the Service accepts
 * PDF, JPEG and PNG only (spec 4.2 rule 4, section 8). Shared by the client (checked before any
 * upload) and the local sandbox (checked again on receipt).
 */
export type DocumentMime = 'application/pdf' | 'image/jpeg' | 'image/png'

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024

export function sniffMime(bytes: Uint8Array): DocumentMime | undefined {
  const b = bytes
  if (b.length >= 4 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return 'application/pdf' // %PDF
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'image/png'
  return undefined
}

export interface ImageInfo {
  width: number
  height: number
  /** false for greyscale images (PNG colour types 0 and 4, single-component JPEG). */
  colour: boolean
}

/** Width, height and colour from the PNG IHDR chunk or the first JPEG start-of-frame marker. */
export function imageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const mime = sniffMime(bytes)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (mime === 'image/png') {
    // signature (8) + length (4) + "IHDR" (4) + width (4) + height (4) + depth (1) + colour type (1)
    if (bytes.length < 26 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined
    const colourType = bytes[25]
    return {width: view.getUint32(16), height: view.getUint32(20), colour: colourType !== 0 && colourType !== 4}
  }
  if (mime === 'image/jpeg') {
    let i = 2
    while (i + 4 <= bytes.length) {
      if (bytes[i] !== 0xff) return undefined
      const marker = bytes[i + 1]
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2
        continue
      }
      const len = view.getUint16(i + 2)
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (i + 10 > bytes.length) return undefined
        return {height: view.getUint16(i + 5), width: view.getUint16(i + 7), colour: bytes[i + 9] >= 3}
      }
      i += 2 + len
    }
  }
  return undefined
}
