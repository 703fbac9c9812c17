import { numberToHex, parseEther, toHex, verifyMessage, verifyTypedData, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as Wallet from './Wallet.js'

// Ports apart from the running stack's (8545/8546) and from devnet's anvil tests (18545…).
const chains = [
  { id: 31337, port: 18555, rpcUrl: 'http://127.0.0.1:18555' },
  { id: 31338, port: 18556, rpcUrl: 'http://127.0.0.1:18556' },
]
const known = { 31337: chains[0]!.rpcUrl, 31338: chains[1]!.rpcUrl }
const origin = 'http://localhost:5173'
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' // account 1 of the test mnemonic

let anvil: Anvil.start.ReturnType
beforeAll(async () => {
  anvil = await Anvil.start({ chains })
})
afterAll(() => anvil?.stop())

function memoryStorage(): Wallet.Storage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

function setup(answers: { approve?: boolean; permitted?: boolean } = {}) {
  const approve = vi.fn(async (_: Wallet.Approval) => answers.approve ?? true)
  const storage = memoryStorage()
  if (answers.permitted !== false) storage.setItem('doorway-dev-wallet:permitted', JSON.stringify([origin]))
  const wallet = Wallet.create({ approve, storage, origin, chains: known })
  const events: [string, unknown][] = []
  // `connect` fires on a timer after creation; its own test listens for it
  for (const name of ['accountsChanged', 'chainChanged'])
    wallet.provider.on(name, (data: unknown) => events.push([name, data]))
  const request = (method: string, params?: unknown[]) => wallet.provider.request({ method, params })
  return { wallet, approve, storage, events, request, address: wallet.address }
}

const rpc = (url: string, method: string, params: unknown[] = []) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    .then((res) => res.json())
    .then((body) => body.result)

describe('eth_requestAccounts', () => {
  test('behavior: prompts once, remembers the origin and emits accountsChanged', async () => {
    const { request, approve, storage, events, address } = setup({ permitted: false })
    expect(await request('eth_accounts')).toEqual([])
    expect(await request('eth_requestAccounts')).toEqual([address])
    expect(approve).toHaveBeenCalledTimes(1)
    expect(approve.mock.calls[0]![0]).toMatchObject({ origin, description: `Connect to ${origin}`, chainId: 31337 })
    expect(JSON.parse(storage.getItem('doorway-dev-wallet:permitted')!)).toEqual([origin])
    expect(await request('eth_requestAccounts')).toEqual([address])
    expect(approve).toHaveBeenCalledTimes(1)
    expect(await request('eth_accounts')).toEqual([address])
    expect(events).toEqual([['accountsChanged', [address]]])
  })

  test('error: rejecting the prompt throws 4001 and grants nothing', async () => {
    const { request } = setup({ permitted: false, approve: false })
    await expect(request('eth_requestAccounts')).rejects.toMatchObject({
      code: 4001,
      message: 'User rejected the request.',
    })
    expect(await request('eth_accounts')).toEqual([])
  })

  test('behavior: connects queued behind an approved one do not prompt again', async () => {
    const { request, approve, address } = setup({ permitted: false })
    const all = await Promise.all([request('eth_requestAccounts'), request('eth_requestAccounts')])
    expect(all).toEqual([[address], [address]])
    expect(approve).toHaveBeenCalledOnce()
  })

  test('behavior: prompts wait for each other, one at a time', async () => {
    let open = 0
    let most = 0
    const storage = memoryStorage()
    const approve = async () => {
      most = Math.max(most, ++open)
      await new Promise((resolve) => setTimeout(resolve, 10))
      open--
      return false
    }
    const { provider } = Wallet.create({ approve, storage, origin, chains: known })
    const asks = [1, 2, 3].map(() => provider.request({ method: 'eth_requestAccounts' }).catch((e) => e.code))
    expect(await Promise.all(asks)).toEqual([4001, 4001, 4001])
    expect(most).toBe(1)
  })
})

describe('wallet_revokePermissions', () => {
  test('behavior: forgets the origin and emits accountsChanged with []', async () => {
    const { request, events } = setup()
    expect(await request('wallet_revokePermissions', [{ eth_accounts: {} }])).toBeNull()
    expect(await request('eth_accounts')).toEqual([])
    expect(events).toEqual([['accountsChanged', []]])
  })
})

describe('personal_sign', () => {
  test('behavior: signs with account 0 after approval, verifiable with viem', async () => {
    const { request, approve, address } = setup()
    const message = 'Hello from Doorway'
    const signature = (await request('personal_sign', [toHex(message), address])) as Hex
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    expect(approve.mock.calls[0]![0].description).toBe('Sign message: Hello from Doorway')
  })

  test('error: unpermitted origin → 4100 without a prompt', async () => {
    const { request, approve, address } = setup({ permitted: false })
    await expect(request('personal_sign', [toHex('hi'), address])).rejects.toMatchObject({ code: 4100 })
    expect(approve).not.toHaveBeenCalled()
  })

  test('error: another address → 4100', async () => {
    const { request } = setup()
    await expect(request('personal_sign', [toHex('hi'), recipient])).rejects.toMatchObject({ code: 4100 })
  })

  test('param: a malformed address is invalid params (-32602)', async () => {
    const { request } = setup()
    await expect(request('personal_sign', [toHex('hi'), '0x1234'])).rejects.toMatchObject({ code: -32602 })
  })

  test('error: rejected → 4001', async () => {
    const { request, address } = setup({ approve: false })
    await expect(request('personal_sign', [toHex('hi'), address])).rejects.toMatchObject({ code: 4001 })
  })
})

describe('eth_signTypedData_v4', () => {
  test('behavior: signs EIP-712 data given as a JSON string', async () => {
    const { request, address } = setup()
    const typed = {
      domain: { name: 'Doorway', version: '1', chainId: 31337 },
      types: { Greeting: [{ name: 'text', type: 'string' }] },
      primaryType: 'Greeting',
      message: { text: 'gm' },
    } as const
    const signature = (await request('eth_signTypedData_v4', [address, JSON.stringify(typed)])) as Hex
    expect(await verifyTypedData({ ...typed, address, signature })).toBe(true)
  })
})

/** The receipt once the node has mined the transaction (anvil mines at once, but not synchronously). */
function mined(request: (method: string, params: unknown[]) => Promise<unknown>, hash: Hex) {
  return vi.waitFor(async () => {
    const receipt = await request('eth_getTransactionReceipt', [hash])
    if (!receipt) throw new Error(`${hash} not mined yet`)
    return receipt
  })
}

describe('eth_sendTransaction', () => {
  test('behavior: fills, signs and sends; the transfer is mined and moves the balance', async () => {
    const { request, approve, address } = setup()
    const before = BigInt(await rpc(known[31337], 'eth_getBalance', [recipient, 'latest']))
    const value = numberToHex(parseEther('0.001'))
    const hash = (await request('eth_sendTransaction', [{ from: address, to: recipient, value }])) as Hex
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await mined(request, hash)
    expect(receipt).toMatchObject({ status: '0x1', from: address.toLowerCase() })
    const after = BigInt(await rpc(known[31337], 'eth_getBalance', [recipient, 'latest']))
    expect(after - before).toBe(parseEther('0.001'))
    expect(approve.mock.calls[0]![0].description).toBe(`Send 0.001 ETH to ${recipient}`)
  })

  test('behavior: two queued sends get consecutive nonces and are both mined', async () => {
    const { request, address } = setup()
    const send = () => request('eth_sendTransaction', [{ from: address, to: recipient, value: '0x1' }])
    const hashes = (await Promise.all([send(), send()])) as Hex[]
    const receipts = await Promise.all(hashes.map((hash) => mined(request, hash)))
    expect(receipts.map((r: any) => r.status)).toEqual(['0x1', '0x1'])
  })

  test('error: unpermitted → 4100, rejected → 4001', async () => {
    const tx = { to: recipient, value: '0x1' }
    await expect(setup({ permitted: false }).request('eth_sendTransaction', [tx])).rejects.toMatchObject({ code: 4100 })
    await expect(setup({ approve: false }).request('eth_sendTransaction', [tx])).rejects.toMatchObject({ code: 4001 })
  })
})

describe('wallet_switchEthereumChain', () => {
  test('behavior: switches to 31338 without a prompt, emits chainChanged and uses its RPC', async () => {
    const { request, approve, events, storage } = setup()
    expect(await request('wallet_switchEthereumChain', [{ chainId: '0x7a6a' }])).toBeNull()
    expect(events).toEqual([['chainChanged', '0x7a6a']])
    expect(await request('eth_chainId')).toBe('0x7a6a')
    expect(await request('net_version')).toBe('31338')
    // forwarded to the node: the chain answers for itself
    expect(await request('eth_blockNumber')).toMatch(/^0x/)
    expect(await Anvil.chainId(known[31338])).toBe(31338)
    expect(storage.getItem('doorway-dev-wallet:chain')).toBe('31338')
    expect(approve).not.toHaveBeenCalled()
  })

  test('behavior: switching to the current chain emits nothing', async () => {
    const { request, events } = setup()
    await request('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])
    expect(events).toEqual([])
  })

  test('error: unknown chain → 4902 with the usual message', async () => {
    const { request } = setup()
    await expect(request('wallet_switchEthereumChain', [{ chainId: '0x7a6b' }])).rejects.toMatchObject({
      code: 4902,
      message: 'Unrecognized chain ID "0x7a6b".',
    })
  })

  test.each([['31338'], ['0x07a6a'], [undefined]])('param: chainId %s is invalid params (-32602)', async (chainId) => {
    const { request } = setup()
    await expect(request('wallet_switchEthereumChain', [{ chainId }])).rejects.toMatchObject({ code: -32602 })
  })
})

describe('wallet_addEthereumChain', () => {
  test('behavior: after approval the chain is known, the wallet is on it, and it persists', async () => {
    const { request, approve, events, storage, wallet } = setup()
    // chain 31339 served by the 31338 node's URL: enough to prove the wallet talks to the added URL
    const param = { chainId: '0x7a6b', chainName: 'Anvil 3', rpcUrls: [known[31338]], nativeCurrency: {} }
    expect(await request('wallet_addEthereumChain', [param])).toBeNull()
    expect(approve.mock.calls[0]![0].description).toBe(`Add network 31339 (Anvil 3) at ${known[31338]}`)
    expect(events).toEqual([['chainChanged', '0x7a6b']])
    expect(await request('eth_chainId')).toBe('0x7a6b')
    expect(await request('eth_getBalance', [wallet.address, 'latest'])).toMatch(/^0x/)
    await request('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])
    await request('wallet_switchEthereumChain', [{ chainId: '0x7a6b' }])
    const reloaded = Wallet.create({ approve, storage, origin, chains: known })
    expect(reloaded.state().chainId).toBe(31339)
  })

  test('error: rejected → 4001 and the chain stays unknown', async () => {
    const { request } = setup({ approve: false })
    const param = { chainId: '0x7a6b', rpcUrls: [known[31338]] }
    await expect(request('wallet_addEthereumChain', [param])).rejects.toMatchObject({ code: 4001 })
    await expect(request('wallet_switchEthereumChain', [{ chainId: '0x7a6b' }])).rejects.toMatchObject({ code: 4902 })
  })
})

describe('setChain', () => {
  test('behavior: the dev controls move the wallet by itself and emit chainChanged like a network menu', async () => {
    const { wallet, events } = setup()
    const changed = vi.fn()
    wallet.onChange(changed)
    wallet.setChain(31338)
    expect(events).toEqual([['chainChanged', '0x7a6a']])
    expect(changed).toHaveBeenCalledOnce()
    expect(() => wallet.setChain(1)).toThrow(expect.objectContaining({ code: 4902 }))
  })
})

describe('provider', () => {
  test('behavior: emits connect with the chain id after load', async () => {
    const { wallet } = setup()
    const connect = vi.fn()
    wallet.provider.on('connect', connect)
    await new Promise((resolve) => setTimeout(resolve))
    expect(connect).toHaveBeenCalledExactlyOnceWith({ chainId: '0x7a69' })
  })

  test('behavior: removeListener stops delivery', async () => {
    const { wallet, request } = setup()
    const listener = vi.fn()
    wallet.provider.on('chainChanged', listener)
    wallet.provider.removeListener('chainChanged', listener)
    await request('wallet_switchEthereumChain', [{ chainId: '0x7a6a' }])
    expect(listener).not.toHaveBeenCalled()
  })

  test.each(['eth_sign', 'eth_signTransaction', 'wallet_watchAsset'])(
    'error: %s is not forwarded to the node → 4200',
    async (method) => {
      await expect(setup().request(method, [])).rejects.toMatchObject({ code: 4200 })
    },
  )

  test('error: node errors keep their JSON-RPC code', async () => {
    await expect(setup().request('eth_noSuchMethod', [])).rejects.toMatchObject({ code: -32601 })
  })
})
