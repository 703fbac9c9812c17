import { describe, expect, test, vi } from 'vitest'
import type { SiwxInput } from '../types.js'
import * as SiwxHost from './siwx.js'

const input: SiwxInput = { accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId: 'eip155:31337' }

describe('call', () => {
  test('behavior: a message crosses as plain data and its exact text, without its methods', async () => {
    const siwx = { createMessage: async (i: SiwxInput) => ({ ...i, domain: 'a.example', uri: 'https://a.example', version: '1', nonce: 'n1', toString: () => 'the text' }) }
    const answer = await SiwxHost.call(siwx, { fn: 'createMessage', args: [input] })
    expect(answer).toEqual({ data: { ...input, domain: 'a.example', uri: 'https://a.example', version: '1', nonce: 'n1' }, message: 'the text' })
    // The port structured-clones: the answer must hold no function.
    expect(() => structuredClone(answer)).not.toThrow()
  })

  test('behavior: siweConfig.createMessage answers its text as it is', async () => {
    const siweConfig = { createMessage: () => 'siwe text' }
    expect(await SiwxHost.call(siweConfig, { fn: 'createMessage', args: [{}] })).toBe('siwe text')
  })

  test('behavior: an optional function left out answers null; other answers pass through, undefined as null', async () => {
    expect(await SiwxHost.call({}, { fn: 'getRequired', args: [] })).toBeNull()
    expect(await SiwxHost.call({ getRequired: () => true }, { fn: 'getRequired', args: [] })).toBe(true)
    const siwx = { getSessions: vi.fn(async () => [{ message: 'm' }]), addSession: async () => undefined }
    expect(await SiwxHost.call(siwx, { fn: 'getSessions', args: ['eip155:1', '0xa'] })).toEqual([{ message: 'm' }])
    expect(siwx.getSessions).toHaveBeenCalledWith('eip155:1', '0xa')
    expect(await SiwxHost.call(siwx, { fn: 'addSession', args: [{}] })).toBeNull()
    expect(await SiwxHost.call(undefined, { fn: 'getSessions', args: [] })).toBeNull()
  })

  test('behavior: methods keep their object (a class instance works)', async () => {
    class Sessions {
      list = ['s']
      async getSessions() {
        return this.list
      }
    }
    expect(await SiwxHost.call(new Sessions(), { fn: 'getSessions', args: [] })).toEqual(['s'])
  })

  test('error: a dapp function that throws reaches the frame as a rejection', async () => {
    const siwx = { createMessage: async () => Promise.reject(new Error('no nonce')) }
    await expect(SiwxHost.call(siwx, { fn: 'createMessage', args: [input] })).rejects.toThrow('no nonce')
  })
})
