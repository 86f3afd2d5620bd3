import {describe, expect, it} from 'vitest'
import {imageInfo, sniffMime} from '../../../src/lib/kyc/file-sniff.js'
import {jpeg, pdf, png} from '../../helpers/kyc.js'

describe('document type from magic bytes', () => {
  it('recognises PDF, JPEG and PNG by content and nothing else', () => {
    expect(sniffMime(pdf())).toBe('application/pdf')
    expect(sniffMime(jpeg(10, 10))).toBe('image/jpeg')
    expect(sniffMime(png(10, 10))).toBe('image/png')
    expect(sniffMime(Buffer.from('GIF89a......'))).toBeUndefined()
    expect(sniffMime(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined()
    expect(sniffMime(new Uint8Array())).toBeUndefined()
  })

  it('reads size and colour from the PNG IHDR', () => {
    expect(imageInfo(png(1200, 800))).toEqual({width: 1200, height: 800, colour: true})
    expect(imageInfo(png(640, 480, 0))).toEqual({width: 640, height: 480, colour: false})
    expect(imageInfo(png(640, 480, 4))?.colour).toBe(false)
    expect(imageInfo(png(640, 480, 6))?.colour).toBe(true)
  })

  it('reads size and colour from the first JPEG frame header, skipping other segments', () => {
    expect(imageInfo(jpeg(1024, 768))).toEqual({width: 1024, height: 768, colour: true})
    expect(imageInfo(jpeg(300, 200, 1))).toEqual({width: 300, height: 200, colour: false})
    expect(imageInfo(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toBeUndefined()
    expect(imageInfo(pdf())).toBeUndefined()
  })
})
