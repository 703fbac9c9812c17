import type * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { embeddedText } from '@doorway/shared/texts/embedded'
import { describe, expect, test, vi } from 'vitest'
import type * as SmartAccountChunk from './smartAccount.js'
import * as SmartRequests from './smartRequests.js'

const smartAddress = '0x1111111111111111111111111111111111111111'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
  SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
  implementations: { HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4' },
} as const
const txHash = '0x' + 'ab'.repeat(32)
const blockHash = '0x' + 'cd'.repeat(32)
const log = { address: to, data: '0x01', topics: ['0x' + 'ef'.repeat(32)] }

/** Every test's operation has its own hash: the sent batches are remembered for the page (smartRequests.ts). */
let hashes = 0
const nextHash = () => `0x${(++hashes).toString(16).padStart(64, '0')}` as const

/** A user operation's receipt as the bundler gives it (viem's UserOperationReceipt, the fields read here). */
const receiptOf = (success: boolean, reason?: string) => ({
  success,
  ...(reason !== undefined && { reason }),
  logs: [{ ...log, blockNumber: 7n, logIndex: 0 }],
  receipt: { transactionHash: txHash, blockHash, blockNumber: 7n, gasUsed: 21_000n },
})

type Fake = {
  receipt?: ReturnType<typeof receiptOf> | null
  prepare?: () => Promise<unknown>
  paymasterUrl?: string
  /** Chains with no smart account: `on` rejects for them. */
  without?: readonly Caip.ChainId[]
}

/** A context on a fake smart account (its chunk's prepare/json/send/wait/receipt/wrap) whose secure-site signs `0xsig`. */
function setup(fake: Fake = {}) {
  const hash = nextHash()
  const prepared = { sender: smartAddress, callData: '0xprepared' }
  const account = {
    address: smartAddress,
    prepare: vi.fn(fake.prepare ?? (async () => prepared)),
    json: vi.fn((operation: unknown) => ({ json: operation })),
    send: vi.fn(async () => hash),
    wait: vi.fn(async () => fake.receipt ?? receiptOf(true)),
    receipt: vi.fn(async () => (fake.receipt === undefined ? receiptOf(true) : fake.receipt)),
    wrap: vi.fn(async (signature: string) => `${signature}6492`),
  }
  const network = { bundlerUrl: 'http://127.0.0.1:4337', ...(fake.paymasterUrl && { paymasterUrl: fake.paymasterUrl }), environment, enforcers: {} }
  const on = vi.fn(async (chainId: Caip.ChainId) => {
    if (fake.without?.includes(chainId)) throw new Error(`Smart accounts are not available on ${chainId}`)
    return { account: account as unknown as SmartAccountChunk.Account, network: network as SmartAccountChunk.Network }
  })
  const signOperation = vi.fn(async (_operation: Record<string, unknown>, _environment: unknown, send: (signature: `0x${string}`) => Promise<unknown>) => send('0xsig'))
  const signAsOwner = vi.fn(async () => '0xowner' as const)
  const landed = vi.fn()
  const context: SmartRequests.Context = {
    smart: { address: smartAddress, sponsored: false, on },
    chainId: () => 'eip155:31337',
    landed,
    signOperation,
    signAsOwner,
  }
  const request = (method: string, params: unknown[]) => SmartRequests.request(context, method, params)
  return { request, account, on, signOperation, signAsOwner, hash, prepared, landed }
}

const batch = (fields: Record<string, unknown> = {}) => ({ version: '2.0.0', from: smartAddress, chainId: '0x7a69', atomicRequired: true, calls: [{ to }], ...fields })

describe('eth_sendTransaction', () => {
  test('behavior: one call becomes one operation, signed in the secure-site, sent, waited for; the answer is the transaction hash', async () => {
    const { request, account, signOperation, hash, prepared, landed } = setup()
    expect(await request('eth_sendTransaction', [{ from: smartAddress, to, value: '0x10', data: '0xabcd' }])).toBe(txHash)
    expect(account.prepare).toHaveBeenCalledExactlyOnceWith([{ to, value: 16n, data: '0xabcd' }])
    expect(signOperation).toHaveBeenCalledExactlyOnceWith({ json: prepared }, environment, expect.any(Function))
    expect(account.send).toHaveBeenCalledExactlyOnceWith(prepared, '0xsig')
    expect(account.wait).toHaveBeenCalledExactlyOnceWith(hash)
    // spec §3 smartAccountDeployed is asked again once an operation landed.
    expect(landed).toHaveBeenCalledOnce()
  })

  test('param: no value is 0; `input` stands for `data`; no `from` is the smart account', async () => {
    const { request, account } = setup()
    await request('eth_sendTransaction', [{ to, input: '0x1234' }])
    expect(account.prepare).toHaveBeenCalledWith([{ to, value: 0n, data: '0x1234' }])
  })

  test('error: a reverted operation is a -32000 error with the reason', async () => {
    const { request } = setup({ receipt: receiptOf(false, 'Insufficient allowance') })
    await expect(request('eth_sendTransaction', [{ to }])).rejects.toMatchObject({
      code: -32000,
      message: format(embeddedText.operationReverted, { reason: 'Insufficient allowance' }),
    })
  })

  test('error: a reverted operation without a reason still says it reverted', async () => {
    const { request } = setup({ receipt: receiptOf(false) })
    await expect(request('eth_sendTransaction', [{ to }])).rejects.toMatchObject({ code: -32000, message: 'The transaction reverted on chain' })
  })

  test('error: a bundler that is down is said at once, in its first line, and nothing is shown to sign', async () => {
    const down = Object.assign(new Error('HTTP request failed.\n\nURL: http://127.0.0.1:4337'), { shortMessage: 'HTTP request failed.' })
    const { request, signOperation, account } = setup({ prepare: () => Promise.reject(down) })
    const error = await request('eth_sendTransaction', [{ to }]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Errors.ProviderRpcError)
    expect(error).toMatchObject({ message: format(embeddedText.bundlerDown, { reason: 'HTTP request failed.' }), cause: down })
    expect(signOperation).not.toHaveBeenCalled()
    expect(account.send).not.toHaveBeenCalled()
  })

  test('error: a transaction from another address is refused (4100) before anything is prepared', async () => {
    const { request, account } = setup()
    await expect(request('eth_sendTransaction', [{ from: to, to }])).rejects.toMatchObject({ code: Errors.codes.unauthorized })
    expect(account.prepare).not.toHaveBeenCalled()
  })

  test('param: `from` is the smart account in any case', async () => {
    const { request } = setup()
    expect(await request('eth_sendTransaction', [{ from: smartAddress.toUpperCase().replace('0X', '0x'), to }])).toBe(txHash)
  })

  test.each([
    ['no transaction', []],
    ['no `to` (a contract deployment)', [{ data: '0x6080' }]],
    ['a value that is not hex', [{ to, value: '10' }]],
    ['an empty hex value', [{ to, value: '0x' }]],
    ['data of odd length', [{ to, data: '0xabc' }]],
  ])('error: %s is an invalid request (-32602)', async (_, params) => {
    const { request, account } = setup()
    await expect(request('eth_sendTransaction', params)).rejects.toMatchObject({ code: -32602 })
    expect(account.prepare).not.toHaveBeenCalled()
  })
})

describe('wallet_sendCalls', () => {
  test('behavior: the calls become one operation; the answer is its hash as the batch id, without waiting for it', async () => {
    const { request, account, hash } = setup()
    const calls = [{ to, value: '0x2386f26fc10000' }, { to, data: '0xa9059cbb' }, { to, input: '0x095ea7b3', value: '0x0' }]
    expect(await request('wallet_sendCalls', [batch({ calls })])).toEqual({ id: hash })
    expect(account.prepare).toHaveBeenCalledExactlyOnceWith([
      { to, value: 10_000_000_000_000_000n },
      { to, value: 0n, data: '0xa9059cbb' },
      { to, value: 0n, data: '0x095ea7b3' },
    ])
    expect(account.wait).not.toHaveBeenCalled()
  })

  test('param: the chain id is compared as a number, whatever its hex case; no chain id is the current chain', async () => {
    const { request } = setup()
    await expect(request('wallet_sendCalls', [batch({ chainId: '0x7A69' })])).resolves.toHaveProperty('id')
    await expect(request('wallet_sendCalls', [batch({ chainId: undefined })])).resolves.toHaveProperty('id')
  })

  test('error: a batch for another chain is refused (5710)', async () => {
    const { request, account } = setup()
    await expect(request('wallet_sendCalls', [batch({ chainId: '0x1' })])).rejects.toMatchObject({ code: 5710 })
    expect(account.prepare).not.toHaveBeenCalled()
  })

  test('error: more calls than one operation carries are refused (5740)', async () => {
    const { request, account } = setup()
    const calls = Array.from({ length: SmartRequests.maxCalls + 1 }, () => ({ to }))
    await expect(request('wallet_sendCalls', [batch({ calls })])).rejects.toMatchObject({ code: 5740 })
    expect(account.prepare).not.toHaveBeenCalled()
    await expect(request('wallet_sendCalls', [batch({ calls: calls.slice(1) })])).resolves.toHaveProperty('id')
  })

  test.each([
    ['no batch', []],
    ['no calls', [batch({ calls: undefined })]],
    ['an empty list of calls', [batch({ calls: [] })]],
    ['calls that are not a list', [batch({ calls: { to } })]],
    ['a call that is not an object', [batch({ calls: [to] })]],
    ['a call without `to`', [batch({ calls: [{ value: '0x1' }] })]],
    ['a call whose `to` is not an address', [batch({ calls: [{ to: '0x1234' }] })]],
    ['a call whose data is not hex', [batch({ calls: [{ to, data: 'hello' }] })]],
  ])('error: %s is an invalid request (-32602)', async (_, params) => {
    const { request, account } = setup()
    await expect(request('wallet_sendCalls', params)).rejects.toMatchObject({ code: -32602 })
    expect(account.prepare).not.toHaveBeenCalled()
  })

  test.each([
    ['the batch', { capabilities: { auxiliaryFunds: { supported: true } } }],
    ['a call', { calls: [{ to, capabilities: { permissions: {} } }] }],
  ])('error: a capability that %s requires and the wallet lacks is refused (5700)', async (_, fields) => {
    const { request, account } = setup()
    await expect(request('wallet_sendCalls', [batch(fields)])).rejects.toMatchObject({ code: 5700 })
    expect(account.prepare).not.toHaveBeenCalled()
  })

  test('behavior: an optional capability is ignored, and paymasterService is the wallet\'s own', async () => {
    const { request } = setup()
    const capabilities = { auxiliaryFunds: { optional: true }, paymasterService: { url: 'https://paymaster.example' } }
    await expect(request('wallet_sendCalls', [batch({ capabilities, calls: [{ to, capabilities: { permissions: { optional: true } } }] })])).resolves.toHaveProperty('id')
  })

  test('error: a batch from another address is refused (4100)', async () => {
    const { request, account } = setup()
    await expect(request('wallet_sendCalls', [batch({ from: to })])).rejects.toMatchObject({ code: Errors.codes.unauthorized })
    expect(account.prepare).not.toHaveBeenCalled()
  })
})

describe('wallet_getCallsStatus', () => {
  /** A batch sent through this context, and its status as the bundler's receipt says it. */
  async function status(receipt: ReturnType<typeof receiptOf> | null) {
    const { request, account, landed } = setup({ receipt })
    const { id } = (await request('wallet_sendCalls', [batch()])) as { id: string }
    expect(landed).not.toHaveBeenCalled()
    return { id, account, answer: await request('wallet_getCallsStatus', [id]), landed }
  }

  test('error: an id this connection did not send is unknown (5730)', async () => {
    const { request, account } = setup()
    await expect(request('wallet_getCallsStatus', [nextHash()])).rejects.toMatchObject({ code: 5730 })
    await expect(request('wallet_getCallsStatus', [])).rejects.toMatchObject({ code: 5730 })
    expect(account.receipt).not.toHaveBeenCalled()
  })

  test('behavior: a pending batch is status 100, without receipts', async () => {
    const { id, answer, landed } = await status(null)
    expect(answer).toEqual({ version: '2.0.0', id, chainId: '0x7a69', atomic: true, status: 100 })
    expect(landed).not.toHaveBeenCalled()
  })

  test('behavior: a confirmed batch is status 200 with its one transaction\'s receipt, numbers in hex', async () => {
    const { id, account, answer, landed } = await status(receiptOf(true))
    expect(account.receipt).toHaveBeenCalledWith(id)
    expect(landed).toHaveBeenCalled()
    expect(answer).toEqual({
      version: '2.0.0',
      id,
      chainId: '0x7a69',
      atomic: true,
      status: 200,
      receipts: [{ logs: [log], status: '0x1', blockHash, blockNumber: '0x7', gasUsed: '0x5208', transactionHash: txHash }],
    })
  })

  test('behavior: a reverted batch is status 500: none of its calls took effect', async () => {
    const { answer } = await status(receiptOf(false, 'reverted'))
    expect(answer).toMatchObject({ status: 500, atomic: true, receipts: [{ status: '0x0', transactionHash: txHash }] })
  })
})

describe('wallet_getCapabilities', () => {
  test('behavior: each asked chain with smart accounts is atomic, with a paymaster where the network has one; others are left out', async () => {
    const { request } = setup({ paymasterUrl: 'http://127.0.0.1:4338', without: ['eip155:1'] })
    expect(await request('wallet_getCapabilities', [smartAddress, ['0x7a69', '0x1']])).toEqual({
      '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } },
    })
  })

  test('param: no chains asked is the current chain; a network without a paymaster says so', async () => {
    const { request, on } = setup()
    expect(await request('wallet_getCapabilities', [smartAddress])).toEqual({ '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: false } } })
    expect(on).toHaveBeenCalledExactlyOnceWith('eip155:31337')
  })
})

describe('signing', () => {
  test.each([
    ['personal_sign', ['0x68656c6c6f', smartAddress]],
    ['eth_signTypedData_v4', [smartAddress, '{"types":{}}']],
  ])('behavior: %s is signed by the owner in the secure-site, then wrapped as the account\'s', async (method, params) => {
    const { request, signAsOwner, account } = setup()
    expect(await request(method, params)).toBe('0xowner6492')
    expect(signAsOwner).toHaveBeenCalledExactlyOnceWith(method, params, environment)
    expect(account.wrap).toHaveBeenCalledExactlyOnceWith('0xowner')
  })

  test('error: a method this module does not answer is unsupported (4200)', async () => {
    const { request } = setup()
    await expect(request('eth_sign', [smartAddress, '0x00'])).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod })
  })
})
