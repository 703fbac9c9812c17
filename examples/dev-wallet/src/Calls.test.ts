import type { Hex } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import * as Calls from './Calls.js'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const wallet = { chainId: 31337, address } as const
const batch = (fields: Record<string, unknown> = {}) => [
  { version: '2.0.0', chainId: '0x7a69', from: address, atomicRequired: false, calls: [{ to: other, value: '0x1' }], ...fields },
]
const codeOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return [(error as { code: number }).code, (error as Error).message]
  }
  throw new Error('did not throw')
}

describe('readBatch', () => {
  test('behavior: a well-formed batch reads back with its calls; a missing from is the account', () => {
    const calls = [{ to: other, value: '0x1' }, { data: '0x6000' }, { to: other, data: '0xa9059cbb', capabilities: { x: { optional: true } } }]
    expect(Calls.readBatch(batch({ calls, id: 'mine', from: undefined, capabilities: { paymasterService: { url: 'https://pm', optional: true } } }), wallet)).toEqual({
      id: 'mine',
      chainId: 31337,
      from: address,
      calls: [{ to: other, value: '0x1' }, { data: '0x6000' }, { to: other, data: '0xa9059cbb' }],
    })
  })

  test.each([
    ['another chain', 5710, 'Unsupported chain id', { chainId: '0x7a6a' }],
    ['another sender', 4100, 'The requested account and/or method has not been authorized by the user.', { from: other }],
    ['atomicRequired', 5760, 'Atomicity not supported', { atomicRequired: true }],
    ['a capability not marked optional', 5700, 'Unsupported non-optional capability', { capabilities: { paymasterService: { url: 'https://pm' } } }],
    ['a call capability not marked optional', 5700, 'Unsupported non-optional capability', { calls: [{ to: other, capabilities: { permissions: { optional: false } } }] }],
    ['more than 16 calls', 5740, 'Bundle too large', { calls: Array.from({ length: 17 }, () => ({ to: other })) }],
  ])('error: %s → %i %s', (_, code, message, fields) => {
    expect(codeOf(() => Calls.readBatch(batch(fields), wallet))).toEqual([code, message])
  })

  test.each([
    ['no batch', []],
    ['version 1.0', batch({ version: '1.0' })],
    ['a chain id with a leading zero', batch({ chainId: '0x07a69' })],
    ['no atomicRequired', batch({ atomicRequired: undefined })],
    ['no calls', batch({ calls: [] })],
    ['a call that is not an object', batch({ calls: ['0x00'] })],
    ['a call to no address', batch({ calls: [{ to: '0x1234' }] })],
    ['odd data', batch({ calls: [{ to: other, data: '0x123' }] })],
    ['a decimal value', batch({ calls: [{ to: other, value: '100' }] })],
    ['an empty id', batch({ id: '' })],
    ['an id over 4096 bytes', batch({ id: 'é'.repeat(2049) })],
    ['a from that is no address', batch({ from: 'me' })],
    ['capabilities as a list', batch({ capabilities: [] })],
  ])('param: %s is invalid params (-32602)', (_, params) => {
    expect(codeOf(() => Calls.readBatch(params, wallet))[0]).toBe(-32602)
  })
})

describe('capabilities', () => {
  test('behavior: every chain served when none are asked; of those asked, only the served ones', () => {
    const none = { atomic: { status: 'unsupported' } }
    expect(Calls.capabilities(undefined, [31337, 31338])).toEqual({ '0x7a69': none, '0x7a6a': none })
    expect(Calls.capabilities(['0x7a6a', '0x1'], [31337, 31338])).toEqual({ '0x7a6a': none })
  })

  test.each([['0x7a6a'], [['7a6a']]])('param: chain ids %j are invalid params (-32602)', (asked) => {
    expect(codeOf(() => Calls.capabilities(asked, [31337]))[0]).toBe(-32602)
  })
})

describe('create', () => {
  const sent = (id: string): Calls.Sent => ({ id, chainId: 31337, hashes: [], complete: true })

  test('behavior: a random 32-byte id each time the dapp gives none', () => {
    const store = Calls.create()
    const [a, b] = [store.reserve(undefined), store.reserve(undefined)]
    expect(a).toMatch(/^0x[0-9a-f]{64}$/)
    expect(b).not.toBe(a)
  })

  test('error: a dapp id reserved or sent is a duplicate (5720); a released one is free again', () => {
    const store = Calls.create()
    store.reserve('a')
    expect(codeOf(() => store.reserve('a'))).toEqual([5720, 'Duplicate ID'])
    store.release('a')
    store.reserve('a')
    store.settle(sent('a'))
    store.release('a')
    expect(codeOf(() => store.reserve('a'))[0]).toBe(5720)
    expect(store.get('a')).toEqual(sent('a'))
  })

  test('error: an id never sent is unknown (5730), a reserved one too; no string is invalid params', () => {
    const store = Calls.create()
    store.reserve('pending')
    expect(codeOf(() => store.get('nope'))).toEqual([5730, 'Unknown bundle id'])
    expect(codeOf(() => store.get('pending'))[0]).toBe(5730)
    expect(codeOf(() => store.get(7))[0]).toBe(-32602)
  })
})

describe('send', () => {
  const calls = [{ value: '0x1' }, { value: '0x2' }, { value: '0x3' }] as const

  test('behavior: one call after another, each once the one before is sent', async () => {
    const order: string[] = []
    const sendOne = vi.fn(async (call: Calls.Call, index: number) => {
      order.push(`start ${index}`)
      await new Promise((resolve) => setTimeout(resolve, 3 - index))
      order.push(`end ${index}`)
      return `0x0${index}` as Hex
    })
    expect(await Calls.send(calls, sendOne)).toEqual({ hashes: ['0x00', '0x01', '0x02'], complete: true })
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2'])
    expect(sendOne.mock.calls.map(([call]) => call.value)).toEqual(['0x1', '0x2', '0x3'])
  })

  test('behavior: a refused call stops the batch; those before it stay sent', async () => {
    const sendOne = vi.fn(async (_: Calls.Call, index: number) => {
      if (index === 1) throw new Error('execution reverted')
      return '0xaa' as Hex
    })
    expect(await Calls.send(calls, sendOne)).toEqual({ hashes: ['0xaa'], complete: false })
    expect(sendOne).toHaveBeenCalledTimes(2)
  })

  test('error: a refused first call is the answer: nothing was sent', async () => {
    await expect(Calls.send(calls, () => Promise.reject(new Error('insufficient funds')))).rejects.toThrow('insufficient funds')
  })
})

describe('status', () => {
  const receipt = (hash: Hex, ok: boolean): Calls.Receipt & { from: string } => ({
    status: ok ? '0x1' : '0x0',
    blockHash: `0x${'b'.repeat(64)}`,
    blockNumber: '0x5',
    gasUsed: '0x5208',
    transactionHash: hash,
    logs: [{ address: other, data: '0x', topics: [`0x${'c'.repeat(64)}`], logIndex: '0x0' } as Calls.Receipt['logs'][number]],
    from: address,
  })

  test.each([
    ['a call not mined yet', [true, null], true, 100],
    ['every call succeeded', [true, true], true, 200],
    ['the first reverted and none succeeded', [false, false], true, 500],
    ['the only call sent reverted', [false], false, 500],
    ['one succeeded and one reverted', [true, false], true, 600],
    ['the first reverted and a later one succeeded', [false, true], true, 600],
    ['the node refused a call after one that succeeded', [true], false, 600],
  ] as const)('behavior: %s → %i', async (_, outcomes, complete, code) => {
    const hashes = outcomes.map((_, index) => `0x0${index}` as Hex)
    const sent = { id: '0xid', chainId: 31337, hashes, complete }
    const result = await Calls.status(sent, async (hash) => {
      const ok = outcomes[Number(hash)]
      return ok === null || ok === undefined ? null : receipt(hash, ok)
    })
    expect(result).toMatchObject({ version: '2.0.0', id: '0xid', chainId: '0x7a69', atomic: false, status: code })
    expect(result.receipts.map((r) => r.transactionHash)).toEqual(hashes.filter((_, i) => outcomes[i] !== null))
  })

  test('behavior: receipts carry only the fields EIP-5792 names, logs their address, data and topics', async () => {
    const result = await Calls.status({ id: 'x', chainId: 1, hashes: ['0x01'], complete: true }, async (hash) => receipt(hash, true))
    expect(result.receipts).toEqual([
      {
        logs: [{ address: other, data: '0x', topics: [`0x${'c'.repeat(64)}`] }],
        status: '0x1',
        blockHash: `0x${'b'.repeat(64)}`,
        blockNumber: '0x5',
        gasUsed: '0x5208',
        transactionHash: '0x01',
      },
    ])
  })
})
