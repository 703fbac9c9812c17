import { describe, expect, test } from 'vitest'
import * as Envelope from './Envelope.js'

const kek = () => Envelope.importKey(crypto.getRandomValues(new Uint8Array(32)))
const share = Uint8Array.from({ length: 17 }, (_, i) => i)

describe('encrypt and decrypt', () => {
  test('behavior: a share round-trips under KEK_A for its own row', async () => {
    const key = await kek()
    const sealed = await Envelope.encrypt(key, share, 'user-1|device-1')
    expect(sealed.length).toBe(12 + share.length + 16)
    expect(await Envelope.decrypt(key, sealed, 'user-1|device-1')).toEqual(share)
  })

  test('error: another KEK, another row or an altered byte does not open', async () => {
    const key = await kek()
    const sealed = await Envelope.encrypt(key, share, 'user-1|device-1')
    await expect(Envelope.decrypt(await kek(), sealed, 'user-1|device-1')).rejects.toThrow()
    await expect(Envelope.decrypt(key, sealed, 'user-1|device-2')).rejects.toThrow()
    const tampered = sealed.slice()
    tampered[20]! ^= 1
    await expect(Envelope.decrypt(key, tampered, 'user-1|device-1')).rejects.toThrow()
  })

  test('error: a KEK of the wrong size is refused', async () => {
    await expect(Envelope.importKey(new Uint8Array(16))).rejects.toThrow('KEK_A must be 32 bytes')
  })

  test('behavior: KEK_A cannot be exported from the server process', async () => {
    await expect(crypto.subtle.exportKey('raw', await kek())).rejects.toThrow()
  })
})
