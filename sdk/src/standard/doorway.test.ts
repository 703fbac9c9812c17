// @vitest-environment jsdom
import type * as Protocol from '@doorway/shared/Protocol'
import { StandardWalletAdapter } from '@solana/wallet-standard-wallet-adapter-base'
import { PublicKey } from '@solana/web3.js'
import { getWallets } from '@wallet-standard/app'
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Doorway from './doorway.js'

const chainId = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3'
const address = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
const base = { open: false, view: 'Connect' as const, loading: false, status: 'connected' as const }
const connected: Protocol.ModalState = { ...base, accounts: [`eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`, `${chainId}:${address}`] }

const lifetimes: AbortController[] = []
afterEach(() => lifetimes.splice(0).forEach((l) => l.abort()))

/** The wallet started as the host chunk starts it, with the frame's answers scripted by `answer`. */
function start(answer: (method: string, params: Record<string, unknown> | undefined) => unknown, state: Protocol.ModalState = { ...base, status: 'disconnected' }) {
  const call = vi.fn(async (_name: string, { method, params }: { method: string; params?: Record<string, unknown> }) => answer(method, params))
  let listener: ((state: Protocol.ModalState) => void) | undefined
  const modal = {
    getState: () => state,
    subscribe: ((_event: 'state', callback: (state: Protocol.ModalState) => void) => ((listener = callback), () => (listener = undefined))) as never,
  }
  const lifetime = new AbortController()
  lifetimes.push(lifetime)
  let wallet: ReturnType<typeof getWallets> extends { get(): readonly (infer W)[] } ? W : never
  Doorway.start(call as never, [{ caipNetworkId: chainId }] as never, modal, lifetime.signal, (w) => (wallet = w as never))
  return { call, wallet: wallet!, setState: (next: Protocol.ModalState) => listener?.(next), lifetime }
}

describe('publicKey', () => {
  test('behavior: decodes a base58 address to its 32 bytes, leading 1s as zeros', () => {
    expect(Doorway.publicKey(address)).toEqual(new PublicKey(address).toBytes())
    expect(Doorway.publicKey('11111111111111111111111111111111')).toEqual(new Uint8Array(32))
  })
})

describe('the Doorway wallet', () => {
  test('behavior: registers with the page\'s Wallet Standard apps as "Doorway" on the dapp\'s cluster; destroy unregisters it', () => {
    const { wallet, lifetime } = start(() => null)
    expect(getWallets().get()).toContain(wallet)
    expect(wallet.name).toBe('Doorway')
    expect(wallet.chains).toEqual(['solana:localnet'])
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(Object.keys(wallet.features).sort()).toEqual(['solana:signMessage', 'solana:signTransaction', 'standard:connect', 'standard:disconnect', 'standard:events'])
    lifetime.abort()
    expect(getWallets().get()).not.toContain(wallet)
  })

  test('behavior: its account is the modal\'s Solana account, told to listeners as it changes', () => {
    const { wallet, setState } = start(() => null)
    const changes = vi.fn()
    ;(wallet.features['standard:events'] as { on(e: 'change', l: typeof changes): () => void }).on('change', changes)
    expect(wallet.accounts).toEqual([])
    setState(connected)
    expect(wallet.accounts).toHaveLength(1)
    expect(wallet.accounts[0]).toMatchObject({ address, chains: ['solana:localnet'], features: ['solana:signTransaction', 'solana:signMessage'] })
    // The same account keeps its object (apps compare them); no news without a change.
    const first = wallet.accounts[0]
    setState({ ...connected, open: true })
    expect(wallet.accounts[0]).toBe(first)
    setState({ ...base, status: 'disconnected' })
    expect(wallet.accounts).toEqual([])
    expect(changes).toHaveBeenCalledTimes(2)
  })

  test('behavior: @solana/wallet-adapter drives it: connect asks the frame for an account, signMessage and signTransaction pass bytes both ways', async () => {
    const signature = new Uint8Array(64).fill(7)
    const signed = new Uint8Array([1, ...signature, 9, 9])
    const { wallet, call } = start((method, params) => {
      if (method === 'solana_requestAccounts') return [`${chainId}:${address}`]
      if (method === 'solana_signMessage') return { signature }
      if (method === 'solana_signTransaction') return { transaction: signed, echo: params }
      throw new Error(method)
    })
    const adapter = new StandardWalletAdapter({ wallet: wallet as never })
    await adapter.connect()
    expect(adapter.publicKey?.toBase58()).toBe(address)
    const message = new TextEncoder().encode('hello')
    expect(await adapter.signMessage!(message)).toEqual(signature)
    expect(call).toHaveBeenLastCalledWith('request', { method: 'solana_signMessage', params: { message, pubkey: address } }, { timeoutMs: 300_000 })
    const [output] = await (wallet.features['solana:signTransaction'] as { signTransaction(i: object): Promise<{ signedTransaction: Uint8Array }[]> }).signTransaction({
      account: wallet.accounts[0],
      transaction: new Uint8Array([0, 1, 2]),
    })
    expect(output!.signedTransaction).toEqual(signed)
  })

  test('behavior: a silent connect asks nothing; a refused connect rejects; another account than the connected one is refused before the frame', async () => {
    const { wallet, call } = start(() => {
      throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
    })
    const connect = (wallet.features['standard:connect'] as { connect(i?: { silent?: boolean }): Promise<{ accounts: unknown[] }> }).connect
    expect(await connect({ silent: true })).toEqual({ accounts: [] })
    expect(call).not.toHaveBeenCalled()
    await expect(connect()).rejects.toThrow('User rejected')
    const sign = (wallet.features['solana:signMessage'] as { signMessage(i: object): Promise<unknown> }).signMessage
    await expect(sign({ account: { address }, message: new Uint8Array(1) })).rejects.toThrow('Not the connected account')
    expect(call).toHaveBeenCalledTimes(1)
  })
})
