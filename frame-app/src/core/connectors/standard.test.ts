import type * as Protocol from '@doorway/shared/Protocol'
import { describe, expect, test, vi } from 'vitest'
import type { Host } from '../host.js'
import type { Connector } from './Connector.js'
import { merge } from './merge.js'
import * as Standard from './standard.js'

const address = 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96'
const local = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' as const
const account = (chains: string[], at = address): Protocol.StandardAccount => ({ address: at, publicKey: new Uint8Array(32), chains, features: [] })
const wallet: Protocol.StandardWallet = {
  id: 'a'.repeat(32),
  name: 'Doorway Dev Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  version: '1.0.0',
  chains: ['solana:localnet'],
  features: ['standard:connect', 'solana:signTransaction', 'solana:signMessage'],
  accounts: [],
}

function hostAnswering(answer: (params: Record<string, unknown>) => unknown) {
  const call = vi.fn(async (_method: string, params: Record<string, unknown>) => answer(params))
  return { host: { call } as unknown as Host, call }
}

describe('fromWallet', () => {
  test('behavior: connect asks standard:connect and takes the account of the network\'s cluster', async () => {
    const { host, call } = hostAnswering(() => ({ accounts: [account(['solana:mainnet'], '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'), account(['solana:localnet'])] }))
    const connector = Standard.fromWallet(wallet, host)
    expect(connector.namespaces).toEqual(['solana'])
    await expect(connector.connect!('solana', local)).resolves.toEqual({ address, chainId: local })
    expect(call).toHaveBeenCalledWith('standardRequest', { id: wallet.id, feature: 'standard:connect', input: {} }, expect.anything())
  })

  test('behavior: a silent connect asks without a prompt', async () => {
    const { host, call } = hostAnswering(() => ({ accounts: [account([])] }))
    await Standard.fromWallet(wallet, host).connect!('solana', local, { silent: true })
    expect(call.mock.calls[0]![1]).toMatchObject({ input: { silent: true } })
  })

  test('behavior: signTransaction names the account and its cluster; signMessage takes the signature (with or without signatureType)', async () => {
    const signed = new Uint8Array([1, 2, 3])
    const signature = new Uint8Array(64).fill(7)
    const { host, call } = hostAnswering((params) =>
      params.feature === 'solana:signTransaction' ? { signedTransaction: signed } : { signedMessage: new Uint8Array([9]), signature, signatureType: 'ed25519' },
    )
    const connector = Standard.fromWallet(wallet, host)
    await expect(connector.solana!.signTransaction(new Uint8Array([0]), { address, chainId: local })).resolves.toBe(signed)
    expect(call.mock.calls[0]![1]).toMatchObject({ input: { account: address, chain: 'solana:localnet' } })
    await expect(connector.solana!.signMessage(new Uint8Array([9]), { address, chainId: local })).resolves.toBe(signature)
  })

  test.each([
    ['a signature of the wrong size', { signedMessage: new Uint8Array([9]), signature: new Uint8Array(10) }],
    ['a base58 string instead of bytes', { signedMessage: new Uint8Array([9]), signature: 'abc' }],
    ['extra fields', { signedMessage: new Uint8Array([9]), signature: new Uint8Array(64), extra: 1 }],
  ])('error: an answer with %s is refused', async (_, answer) => {
    const { host } = hostAnswering(() => answer)
    await expect(Standard.fromWallet(wallet, host).solana!.signMessage(new Uint8Array([9]), { address, chainId: local })).rejects.toThrow('solana:signMessage')
  })

  test('error: a feature the wallet lacks is never asked', async () => {
    const { host, call } = hostAnswering(() => ({}))
    const connector = Standard.fromWallet({ ...wallet, features: ['standard:connect', 'solana:signTransaction'] }, host)
    await expect(connector.solana!.signMessage(new Uint8Array([9]), { address, chainId: local })).rejects.toMatchObject({ code: 4200 })
    expect(call).not.toHaveBeenCalled()
  })
})

describe('clusterOf', () => {
  test.each([
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana:mainnet'],
    ['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'solana:devnet'],
    [local, 'solana:localnet'],
  ] as const)('param: %s is %s', (chainId, cluster) => {
    expect(Standard.clusterOf(chainId)).toBe(cluster)
  })
})

describe('merge', () => {
  test('behavior: a wallet found by EIP-6963 and by Wallet Standard under one name is one connector in both namespaces', () => {
    const { host } = hostAnswering(() => ({}))
    const evm: Connector = { id: 'dev.doorway.wallet', name: 'Doorway Dev Wallet', type: 'ANNOUNCED', namespaces: ['eip155'], request: async () => null }
    const other = Standard.fromWallet({ ...wallet, id: 'b'.repeat(32), name: 'Other' }, host)
    const merged = merge([evm], [Standard.fromWallet(wallet, host), other])
    expect(merged.map((c) => [c.id, c.namespaces])).toEqual([
      ['dev.doorway.wallet', ['eip155', 'solana']],
      ['standard:Other', ['solana']],
    ])
    expect(merged[0]!.solana).toBeDefined()
    expect(merged[0]!.standardId).toBe(wallet.id)
  })
})
