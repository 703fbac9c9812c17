import jsQR from 'jsqr'
import { expect, test } from 'vitest'
import { draw } from './QrCode.js'

/** Rasterises the path's squares (plus a quiet zone) the way a camera would see the SVG. */
function rasterise(value: string, scale = 6) {
  const { size, path } = draw(value)
  const quiet = 4
  const width = (size + quiet * 2) * scale
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255)
  for (const [, x, y] of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < scale; dx++) {
        const i = (((Number(y) + quiet) * scale + dy) * width + (Number(x) + quiet) * scale + dx) * 4
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0
      }
  }
  return { pixels, width }
}

test('behavior: the QR with the logo hole still decodes to the exact pairing URI', () => {
  const uri = `wc:${'7f'.repeat(32)}@2?relay-protocol=irn&symKey=${'a1'.repeat(32)}&expiryTimestamp=1790000000&methods=wc_sessionPropose`
  const { pixels, width } = rasterise(uri)
  expect(jsQR(pixels, width, width)?.data).toBe(uri)
})

test('behavior: the centre is left free for the logo', () => {
  const { size, path } = draw('wc:short@2?relay-protocol=irn&symKey=00')
  const middle = Math.floor(size / 2)
  expect(path).not.toContain(`M${middle} ${middle}h1v1h-1z`)
})
