import * as Errors from '@doorway/shared/Errors'
import { describe, expect, test, vi } from 'vitest'
import * as Embedded from './embeddedConnector.js'

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const solanaAddress = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
const account = { email: 'ada@example.com', address, solanaAddress } as const

/** A connector on a fake secure channel and a fake chain RPC that answers from `chain`. */
function setup(chain: Record<string, unknown> = {}) {
  const calls: { method: string; params: Record<string, unknown> }[] = []
  const rpc: { method: string; params: unknown[] }[] = []
  const refused: string[] = []
  const approvals: string[] = []
  const secure = {
    call: vi.fn(async (method: string, params: Record<string, unknown>) => {
      calls.push({ method, params })
      if (method === 'sign') return { result: params.method === 'eth_sendTransaction' ? '0x02f8raw' : '0xsignature' }
      return null
    }),
  }
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const { method, params } = JSON.parse(String(init?.body)) as { method: string; params: unknown[] }
    rpc.push({ method, params })
    const result = chain[method]
    return new Response(JSON.stringify(result instanceof Error ? { error: { code: -32000, message: result.message } } : { result: result ?? null }))
  })
  const connector = Embedded.create({
    secure: secure as never,
    account,
    chain: () => ({ chainId: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545' }),
    chainIds: () => ['eip155:31337', 'eip155:31338'],
    host: 'http://localhost:5173',
    approve: (op, sign) => {
      approvals.push(op)
      return sign(new AbortController().signal)
    },
    refused: (method) => refused.push(method),
    fetch: fetch as never,
  })
  return { connector, calls, rpc, refused, approvals }
}

describe('embedded connector', () => {
  test('behavior: answers the account and chain itself, as type AUTH with an EOA', async () => {
    const { connector, rpc } = setup()
    expect(connector).toMatchObject({ id: 'embedded', type: 'AUTH', accountType: 'eoa', user: { email: account.email } })
    expect(await connector.request({ method: 'eth_requestAccounts' })).toEqual([address])
    expect(await connector.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(rpc).toEqual([])
  })

  test('behavior: read methods go to the chain RPC as they are, never to the secure-site', async () => {
    const { connector, rpc, calls } = setup({ eth_getBalance: '0x10' })
    expect(await connector.request({ method: 'eth_getBalance', params: [address, 'latest'] })).toBe('0x10')
    expect(rpc).toEqual([{ method: 'eth_getBalance', params: [address, 'latest'] }])
    expect(calls).toEqual([])
  })

  test('error: an unknown method is refused (4200) and reported for the toast, and nothing is signed', async () => {
    const { connector, refused, calls } = setup()
    await expect(connector.request({ method: 'eth_sign', params: [address, '0x00'] })).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod, message: 'Action not allowed: eth_sign' })
    expect(refused).toEqual(['eth_sign'])
    expect(calls).toEqual([])
  })

  test('behavior: personal_sign is approved and signed in the secure-site, with the pinned host and chain', async () => {
    const { connector, calls, approvals } = setup()
    expect(await connector.request({ method: 'personal_sign', params: ['0x68656c6c6f', address] })).toBe('0xsignature')
    expect(approvals).toHaveLength(1)
    expect(calls).toEqual([
      { method: 'sign', params: { op: approvals[0], method: 'personal_sign', params: ['0x68656c6c6f', address], chainId: 'eip155:31337', host: 'http://localhost:5173' } },
    ])
  })

  test('behavior: eth_sendTransaction is filled here (nonce, gas, EIP-1559 fees), signed there, and broadcast here', async () => {
    const { connector, calls, rpc } = setup({
      eth_getTransactionCount: '0x3',
      eth_estimateGas: '0x5208',
      eth_getBlockByNumber: { baseFeePerGas: '0x64' },
      eth_maxPriorityFeePerGas: '0x1',
      eth_sendRawTransaction: '0xhash',
    })
    const hash = await connector.request({ method: 'eth_sendTransaction', params: [{ from: address, to: address, value: '0x1' }] })
    expect(hash).toBe('0xhash')
    const sign = calls.find((c) => c.method === 'sign')!
    expect((sign.params.params as unknown[])[0]).toEqual({
      from: address,
      to: address,
      value: '0x1',
      nonce: '0x3',
      gas: '0x5208',
      maxFeePerGas: '0xc9', // 2 × base fee + tip
      maxPriorityFeePerGas: '0x1',
      chainId: '0x7a69',
    })
    expect(rpc.at(-1)).toEqual({ method: 'eth_sendRawTransaction', params: ['0x02f8raw'] })
  })

  test('error: a transaction from another address is refused before any approval', async () => {
    const { connector, approvals } = setup()
    await expect(
      connector.request({ method: 'eth_sendTransaction', params: [{ from: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', to: address }] }),
    ).rejects.toMatchObject({ code: Errors.codes.unauthorized })
    expect(approvals).toEqual([])
  })

  test('behavior: switching goes only to the dapp\'s networks; others are unrecognised (4902)', async () => {
    const { connector } = setup()
    expect(await connector.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })).toBeNull()
    await expect(connector.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })).rejects.toMatchObject({ code: Errors.codes.unrecognizedChain })
  })

  test('error: a chain RPC error comes back with its code', async () => {
    const { connector } = setup({ eth_call: new Error('execution reverted') })
    await expect(connector.request({ method: 'eth_call', params: [{}] })).rejects.toMatchObject({ message: 'execution reverted' })
  })

  test('behavior: sign out is the secure-site\'s', async () => {
    const { connector, calls } = setup()
    await connector.disconnect!()
    expect(calls).toEqual([{ method: 'signOut', params: {} }])
  })
})

