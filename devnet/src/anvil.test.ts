import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from './anvil.js'

// Ports apart from the running stack's (8545/8546) and from the dev-wallet tests'.
const chains = [
  { id: 31337, port: 18545, rpcUrl: 'http://127.0.0.1:18545' },
  { id: 31338, port: 18546, rpcUrl: 'http://127.0.0.1:18546' },
]

describe('start', () => {
  let anvil: Anvil.start.ReturnType
  beforeAll(async () => {
    anvil = await Anvil.start({ chains })
  })
  afterAll(() => anvil?.stop())

  test('behavior: each chain answers eth_chainId with its id', async () => {
    expect(anvil.reused).toBe(0)
    expect(await Promise.all(chains.map((c) => Anvil.chainId(c.rpcUrl)))).toEqual([31337, 31338])
  })

  test('behavior: a second start reuses the running chains and its stop leaves them running', async () => {
    const again = await Anvil.start({ chains })
    expect(again.reused).toBe(2)
    await again.stop()
    expect(await Anvil.chainId(chains[0]!.rpcUrl)).toBe(31337)
  })

  test('error: a port that answers another chain id is refused with WrongChain', async () => {
    const wrong = [{ ...chains[0]!, id: 1 }]
    await expect(Anvil.start({ chains: wrong })).rejects.toMatchObject({ code: 'WrongChain' })
  })

  test('error: a port taken by something else fails fast with Exited, not a timeout', async () => {
    const server = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => server.listen(18548, '127.0.0.1', resolve))
    try {
      const taken = [{ id: 31337, port: 18548, rpcUrl: 'http://127.0.0.1:18548' }]
      await expect(Anvil.start({ chains: taken, timeoutMs: 5_000 })).rejects.toMatchObject({ code: 'Exited' })
    } finally {
      server.close()
    }
  })
})

describe('stop', () => {
  test('behavior: stops the anvil processes it started', async () => {
    const only = [{ id: 31337, port: 18547, rpcUrl: 'http://127.0.0.1:18547' }]
    const anvil = await Anvil.start({ chains: only })
    expect(await Anvil.chainId(only[0]!.rpcUrl)).toBe(31337)
    await anvil.stop()
    expect(await Anvil.chainId(only[0]!.rpcUrl)).toBeUndefined()
  })
})

describe('chainId', () => {
  test('behavior: undefined when nothing listens', async () => {
    expect(await Anvil.chainId('http://127.0.0.1:1')).toBeUndefined()
  })
})
