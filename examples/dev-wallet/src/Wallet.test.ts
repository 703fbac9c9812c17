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

// A contract that succeeds once and reverts ever after: sload(0) == 0 ? sstore(0, 1) : revert(0, 0).
const onceCode = '0x60005415600b57600080fd5b600160005500'
let onceIndex = 0
async function deployOnce(): Promise<Hex> {
  const at = numberToHex(0xd00e00 + ++onceIndex, { size: 20 })
  await rpc(known[31337], 'anvil_setCode', [at, onceCode])
  return at
}

/**
 * Runs `run` with anvil mining only on `evm_mine`. `frontRun` uses a contract up from account 1 with a
 * higher tip and its own gas limit: anvil orders a block by tip, so it lands before the wallet's pending
 * calls, which passed estimation and now revert on chain.
 */
async function manualMining<T>(run: (steps: { mine(): Promise<unknown>; frontRun(to: Hex): Promise<unknown> }) => Promise<T>): Promise<T> {
  const url = known[31337]
  await rpc(url, 'evm_setAutomine', [false])
  const tip = numberToHex(parseEther('0.0001'))
  const steps = {
    mine: () => rpc(url, 'evm_mine'),
    frontRun: (to: Hex) => rpc(url, 'eth_sendTransaction', [{ from: recipient, to, gas: '0x186a0', maxFeePerGas: tip, maxPriorityFeePerGas: tip }]),
  }
  try {
    return await run(steps)
  } finally {
    await rpc(url, 'evm_setAutomine', [true])
  }
}

const batch = (calls: unknown[], fields: Record<string, unknown> = {}) => [
  { version: '2.0.0', chainId: '0x7a69', atomicRequired: false, calls, ...fields },
]

describe('wallet_getCapabilities', () => {
  test('behavior: every chain the wallet knows, none atomic; asked chains it lacks are left out', async () => {
    const { request, address } = setup()
    const none = { atomic: { status: 'unsupported' } }
    expect(await request('wallet_getCapabilities', [address])).toEqual({ '0x7a69': none, '0x7a6a': none })
    expect(await request('wallet_getCapabilities', [address, ['0x7a6a', '0x1']])).toEqual({ '0x7a6a': none })
  })

  test('error: unpermitted or another address → 4100', async () => {
    await expect(setup({ permitted: false }).request('wallet_getCapabilities', [setup().address])).rejects.toMatchObject({ code: 4100 })
    await expect(setup().request('wallet_getCapabilities', [recipient])).rejects.toMatchObject({ code: 4100 })
  })
})

describe('wallet_sendCalls', () => {
  test('behavior: one prompt lists every call; they go out as consecutive transactions and end as 200', async () => {
    const { request, approve, address } = setup()
    const before = BigInt(await rpc(known[31337], 'eth_getBalance', [recipient, 'latest']))
    const calls = [{ to: recipient, value: numberToHex(parseEther('0.001')) }, { to: recipient, value: numberToHex(parseEther('0.002')) }, { data: '0x6000' }]
    const { id } = (await request('wallet_sendCalls', batch(calls, { from: address }))) as { id: string }
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(approve).toHaveBeenCalledOnce()
    expect(approve.mock.calls[0]![0]).toMatchObject({
      method: 'wallet_sendCalls',
      chainId: 31337,
      description: [
        'Send 3 calls, one transaction each (not atomic):',
        `1. Send 0.001 ETH to ${recipient}`,
        `2. Send 0.002 ETH to ${recipient}`,
        '3. Deploy a contract with 2 bytes of data, sending 0 ETH',
      ].join('\n'),
    })
    const status = await vi.waitFor(async () => {
      const status = (await request('wallet_getCallsStatus', [id])) as any
      if (status.status === 100) throw new Error('pending')
      return status
    })
    expect(status).toMatchObject({ version: '2.0.0', id, chainId: '0x7a69', atomic: false, status: 200 })
    expect(status.receipts).toHaveLength(3)
    expect(Object.keys(status.receipts[0]).sort()).toEqual(['blockHash', 'blockNumber', 'gasUsed', 'logs', 'status', 'transactionHash'])
    const txs = await Promise.all(status.receipts.map((r: any) => rpc(known[31337], 'eth_getTransactionByHash', [r.transactionHash])))
    const [first, ...rest] = txs.map((tx: any) => Number(tx.nonce))
    expect(rest).toEqual([first! + 1, first! + 2])
    expect(txs.map((tx: any) => tx.to)).toEqual([recipient.toLowerCase(), recipient.toLowerCase(), null])
    const after = BigInt(await rpc(known[31337], 'eth_getBalance', [recipient, 'latest']))
    expect(after - before).toBe(parseEther('0.003'))
  })

  test('behavior: pending (100) until mined; a call reverting on chain after one that succeeded makes 600', async () => {
    const { request } = setup()
    const once = await deployOnce()
    await manualMining(async ({ mine, frontRun }) => {
      const { id } = (await request('wallet_sendCalls', batch([{ to: recipient, value: '0x1' }, { to: once }]))) as { id: string }
      expect(await request('wallet_getCallsStatus', [id])).toMatchObject({ status: 100, receipts: [] })
      await frontRun(once)
      await mine()
      const status = (await request('wallet_getCallsStatus', [id])) as any
      expect(status).toMatchObject({ status: 600, atomic: false })
      expect(status.receipts.map((r: any) => r.status)).toEqual(['0x1', '0x0'])
    })
  })

  test('behavior: a batch whose only call reverts on chain ends as 500', async () => {
    const { request } = setup()
    const once = await deployOnce()
    await manualMining(async ({ mine, frontRun }) => {
      const { id } = (await request('wallet_sendCalls', batch([{ to: once }]))) as { id: string }
      await frontRun(once)
      await mine()
      expect(await request('wallet_getCallsStatus', [id])).toMatchObject({ status: 500, receipts: [{ status: '0x0' }] })
    })
  })

  test('behavior: a call the node refuses stops the batch: the earlier ones stay sent (600)', async () => {
    const { request, address } = setup()
    const once = await deployOnce()
    await request('eth_sendTransaction', [{ from: address, to: once }]).then((hash) => mined(request, hash as Hex))
    const { id } = (await request('wallet_sendCalls', batch([{ to: recipient, value: '0x1' }, { to: once }, { to: recipient, value: '0x2' }]))) as { id: string }
    const status = await vi.waitFor(async () => {
      const status = (await request('wallet_getCallsStatus', [id])) as any
      if (status.status === 100) throw new Error('pending')
      return status
    })
    expect(status).toMatchObject({ status: 600, receipts: [{ status: '0x1' }] })
  })

  test('error: a first call the node refuses is the answer; nothing is kept under the dapp id', async () => {
    const { request, address } = setup()
    const once = await deployOnce()
    await request('eth_sendTransaction', [{ from: address, to: once }]).then((hash) => mined(request, hash as Hex))
    await expect(request('wallet_sendCalls', batch([{ to: once }], { id: 'refused' }))).rejects.toThrow(/revert/i)
    await expect(request('wallet_getCallsStatus', ['refused'])).rejects.toMatchObject({ code: 5730 })
  })

  test('behavior: the dapp id is the answer; using it again is a duplicate (5720)', async () => {
    const { request, approve } = setup()
    const call = [{ to: recipient, value: '0x1' }]
    expect(await request('wallet_sendCalls', batch(call, { id: 'order-42' }))).toEqual({ id: 'order-42' })
    await expect(request('wallet_sendCalls', batch(call, { id: 'order-42' }))).rejects.toMatchObject({ code: 5720, message: 'Duplicate ID' })
    expect(approve).toHaveBeenCalledOnce()
    expect(await request('wallet_getCallsStatus', ['order-42'])).toMatchObject({ id: 'order-42' })
  })

  test('error: rejected → 4001, nothing is sent and the dapp id stays free', async () => {
    const { request, address } = setup({ approve: false })
    const nonce = await rpc(known[31337], 'eth_getTransactionCount', [address, 'pending'])
    await expect(request('wallet_sendCalls', batch([{ to: recipient, value: '0x1' }], { id: 'declined' }))).rejects.toMatchObject({ code: 4001 })
    expect(await rpc(known[31337], 'eth_getTransactionCount', [address, 'pending'])).toBe(nonce)
    await expect(request('wallet_getCallsStatus', ['declined'])).rejects.toMatchObject({ code: 5730 })
    await expect(request('wallet_sendCalls', batch([{ to: recipient, value: '0x1' }], { id: 'declined' }))).rejects.toMatchObject({ code: 4001 })
  })

  test.each([
    ['another chain than the wallet is on', 5710, { chainId: '0x7a6a' }],
    ['another sender', 4100, { from: recipient }],
    ['atomicRequired', 5760, { atomicRequired: true }],
    ['a capability the wallet lacks, not optional', 5700, { capabilities: { paymasterService: { url: 'http://127.0.0.1:9' } } }],
    ['no calls', -32602, { calls: [] }],
  ])('error: %s → %i without a prompt', async (_, code, fields) => {
    const { request, approve } = setup()
    await expect(request('wallet_sendCalls', batch([{ to: recipient, value: '0x1' }], fields))).rejects.toMatchObject({ code })
    expect(approve).not.toHaveBeenCalled()
  })

  test('error: unpermitted → 4100 without a prompt', async () => {
    const { request, approve } = setup({ permitted: false })
    await expect(request('wallet_sendCalls', batch([{ to: recipient }]))).rejects.toMatchObject({ code: 4100 })
    expect(approve).not.toHaveBeenCalled()
  })

  test('behavior: an optional capability the wallet lacks is ignored', async () => {
    const { request } = setup()
    const capabilities = { paymasterService: { url: 'http://127.0.0.1:9', optional: true } }
    expect(await request('wallet_sendCalls', batch([{ to: recipient, value: '0x1' }], { capabilities }))).toHaveProperty('id')
  })
})

describe('wallet_getCallsStatus', () => {
  test('error: an id this wallet never sent → 5730', async () => {
    await expect(setup().request('wallet_getCallsStatus', [`0x${'ab'.repeat(32)}`])).rejects.toMatchObject({ code: 5730, message: 'Unknown bundle id' })
  })

  test('error: unpermitted → 4100', async () => {
    await expect(setup({ permitted: false }).request('wallet_getCallsStatus', ['0x01'])).rejects.toMatchObject({ code: 4100 })
  })

  test('error: wallet_showCallsStatus is not supported → 4200', async () => {
    await expect(setup().request('wallet_showCallsStatus', ['0x01'])).rejects.toMatchObject({ code: 4200 })
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
