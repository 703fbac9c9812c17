// @vitest-environment jsdom
import * as Protocol from '@doorway/shared/Protocol'
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Standard from './index.js'

const icon = 'data:image/svg+xml;base64,PHN2Zy8+'
const address = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'

/** An account as @wallet-standard/wallet's ReadonlyWalletAccount keeps it: private fields behind getters. */
class Account {
  readonly #address: string
  readonly #publicKey: Uint8Array
  constructor(addr: string, publicKey: Uint8Array) {
    this.#address = addr
    this.#publicKey = publicKey
  }
  get address() {
    return this.#address
  }
  get publicKey() {
    return this.#publicKey.slice()
  }
  get chains() {
    return ['solana:localnet']
  }
  get features() {
    return ['solana:signTransaction']
  }
  get label() {
    return undefined
  }
  get icon() {
    return undefined
  }
}

type Listener = (properties: { accounts?: readonly Account[] }) => void

/** A Solana wallet stand-in whose features record what they were called with. */
function wallet(options: { chains?: string[]; features?: string[] } = {}) {
  const account = new Account(address, new Uint8Array(32).fill(7))
  const listeners = new Set<Listener>()
  let accounts: Account[] = []
  const all: Record<string, Record<string, unknown>> = {
    'standard:connect': { version: '1.0.0', connect: vi.fn(async () => ((accounts = [account]), { accounts })) },
    'standard:disconnect': { version: '1.0.0', disconnect: vi.fn(async () => void (accounts = [])) },
    'standard:events': {
      version: '1.0.0',
      on: vi.fn((_: 'change', listener: Listener) => (listeners.add(listener), () => listeners.delete(listener))),
    },
    'solana:signTransaction': {
      version: '1.0.0',
      signTransaction: vi.fn(async (...inputs: { transaction: Uint8Array }[]) =>
        inputs.map(({ transaction }) => ({ signedTransaction: Uint8Array.from([...transaction, 9]), extra: () => 'dropped' })),
      ),
    },
    'solana:signAllTransactions': { version: '1.0.0', signAllTransactions: vi.fn() },
  }
  const features = Object.fromEntries(Object.entries(all).filter(([name]) => options.features?.includes(name) ?? true))
  const w = {
    version: '1.0.0' as const,
    name: 'Test Wallet',
    icon,
    chains: options.chains ?? ['solana:localnet', 'solana:devnet'],
    features,
    get accounts() {
      return accounts
    },
  }
  const change = (next: Account[]) => {
    accounts = next
    listeners.forEach((listener) => listener({ accounts }))
  }
  return { wallet: w, account, listeners, change, feature: (name: string) => all[name]! }
}

/** What @wallet-standard/wallet's registerWallet does: announce, and answer the app's ready. */
const pages: AbortController[] = []
function registerWallet(w: object) {
  const callback = ({ register }: { register(w: object): () => void }) => register(w)
  window.dispatchEvent(Object.assign(new Event('wallet-standard:register-wallet'), { detail: callback }))
  // Each test is a page of its own: this wallet's listener leaves with it.
  const page = new AbortController()
  pages.push(page)
  window.addEventListener('wallet-standard:app-ready', (event) => callback((event as CustomEvent).detail), { signal: page.signal })
}

const lifetimes: AbortController[] = []
function start() {
  const call = vi.fn((..._: unknown[]) => Promise.resolve(null))
  const log = { warn: vi.fn() }
  const lifetime = new AbortController()
  lifetimes.push(lifetime)
  const modal = { getState: () => ({ open: false, view: 'Connect' as const, loading: false, status: 'disconnected' as const }), subscribe: () => () => {} }
  const request = Standard.start(call as never, log, lifetime.signal, [{ caipNetworkId: 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' }] as never, modal)
  const sent = () => call.mock.calls.filter(([method]) => method === 'standardWallets').map(([, params]) => (params as { wallets: Protocol.StandardWallet[] }).wallets)
  return { call, log, lifetime, request, sent }
}

afterEach(() => [...lifetimes.splice(0), ...pages.splice(0)].forEach((controller) => controller.abort()))

describe('start', () => {
  test('behavior: finds a wallet that registered before the chunk loaded, and sends the list once', () => {
    const { wallet: w } = wallet()
    registerWallet(w)
    const { sent } = start()
    expect(sent()).toHaveLength(1)
    expect(sent()[0]!.map((x) => x.name)).toEqual(['Test Wallet'])
  })

  test('behavior: finds a wallet that registers after, and sends the new list; unregistering sends it again', () => {
    const { sent } = start()
    expect(sent()).toEqual([[]])
    const { wallet: w } = wallet()
    let unregister = () => {}
    window.dispatchEvent(Object.assign(new Event('wallet-standard:register-wallet'), { detail: ({ register }: { register(w: object): () => void }) => (unregister = register(w)) }))
    expect(sent().at(-1)!.map((x) => x.name)).toEqual(['Test Wallet'])
    unregister()
    expect(sent().at(-1)).toEqual([])
  })

  test('behavior: serialises each wallet explicitly, to the protocol schema, with allowlisted features only', () => {
    const { wallet: w, change, account } = wallet()
    registerWallet(w)
    change([account])
    const { sent } = start()
    const [info] = sent()[0]!
    expect(Protocol.standardWallet(info)).toBe(true)
    expect(info!.id).toMatch(/^[0-9a-f]{32}$/)
    expect(info!.features).toEqual(['standard:connect', 'standard:disconnect', 'solana:signTransaction'])
    // What postMessage does: it drops the wallet's own account's data, not the serialised one's.
    expect(structuredClone(account)).toEqual({})
    const clone = structuredClone(info!.accounts[0]!)
    expect([clone.address, [...clone.publicKey], clone.chains]).toEqual([address, Array(32).fill(7), ['solana:localnet']])
  })

  test.each([
    ['no solana chain', { chains: ['bip122:000000000019d6689c085ae165831e93'] }],
    ['no standard:connect', { features: ['solana:signTransaction'] }],
    ['no way to sign a transaction', { features: ['standard:connect', 'standard:events'] }],
  ])('param: a wallet with %s is left out', (_, options) => {
    registerWallet(wallet(options).wallet)
    expect(start().sent()).toEqual([[]])
  })

  test('behavior: a wallet that fails the schema is left out and logged, the others are sent', () => {
    registerWallet({ ...wallet().wallet, icon: 'https://wallet.example/icon.png' })
    registerWallet(wallet().wallet)
    const { sent, log } = start()
    expect(sent()[0]).toHaveLength(1)
    expect(log.warn).toHaveBeenCalledWith('ignored wallet', expect.stringMatching(/^[0-9a-f]{32}$/))
  })
})

describe('request', () => {
  function connected() {
    const test = wallet()
    registerWallet(test.wallet)
    const started = start()
    const id = started.sent()[0]![0]!.id
    return { ...test, ...started, id }
  }

  test('behavior: connect answers the accounts, serialised', async () => {
    const { request, id } = connected()
    const output = (await request({ id, feature: 'standard:connect', input: {} })) as { accounts: Protocol.StandardAccount[] }
    expect(output.accounts.map((a) => a.address)).toEqual([address])
    expect(output.accounts.every(Protocol.standardAccount)).toBe(true)
  })

  test('behavior: an account named by address is swapped for the wallet\'s own object; bytes cross as they are', async () => {
    const { request, id, account, feature } = connected()
    await request({ id, feature: 'standard:connect', input: {} })
    const transaction = Uint8Array.from([1, 2, 3])
    const output = await request({ id, feature: 'solana:signTransaction', input: { account: address, transaction, chain: 'solana:localnet' } })
    const sign = feature('solana:signTransaction').signTransaction as ReturnType<typeof vi.fn>
    expect(sign).toHaveBeenCalledExactlyOnceWith({ account, transaction, chain: 'solana:localnet' })
    expect(sign.mock.calls[0]![0].account).toBe(account)
    // One input, one output; what could not cross (a function) is left out.
    expect(output).toEqual({ signedTransaction: Uint8Array.from([1, 2, 3, 9]) })
    expect([...(structuredClone(output) as { signedTransaction: Uint8Array }).signedTransaction]).toEqual([1, 2, 3, 9])
  })

  test('error: an unknown wallet id is refused', async () => {
    const { request } = connected()
    await expect(request({ id: 'f'.repeat(32), feature: 'standard:connect', input: {} })).rejects.toMatchObject({ code: 4100 })
  })

  test('error: a feature off the allowlist, or not on the wallet, is refused', async () => {
    const { request, id, feature } = connected()
    await expect(request({ id, feature: 'solana:signAllTransactions' as never, input: {} })).rejects.toMatchObject({ code: 4200 })
    expect(feature('solana:signAllTransactions').signAllTransactions).not.toHaveBeenCalled()
    await expect(request({ id, feature: 'solana:signMessage', input: { account: address, message: new Uint8Array(1) } })).rejects.toMatchObject({ code: 4200 })
  })

  test('error: an account the wallet does not have is refused', async () => {
    const { request, id, feature } = connected()
    await request({ id, feature: 'standard:connect', input: {} })
    const input = { account: '11111111111111111111111111111111', transaction: new Uint8Array(1) }
    await expect(request({ id, feature: 'solana:signTransaction', input })).rejects.toMatchObject({ code: 4100 })
    expect(feature('solana:signTransaction').signTransaction).not.toHaveBeenCalled()
  })
})

describe('events', () => {
  test('behavior: after the first connect, account changes are forwarded; once subscribed, however many connects', async () => {
    registerWallet(wallet().wallet)
    const test = wallet()
    registerWallet(test.wallet)
    const { request, sent, call } = start()
    const id = sent()[0]![1]!.id
    expect(test.listeners.size).toBe(0)
    await request({ id, feature: 'standard:connect', input: {} })
    await request({ id, feature: 'standard:connect', input: {} })
    expect(test.listeners.size).toBe(1)
    test.change([])
    expect(call).toHaveBeenLastCalledWith('standardEvent', { id, accounts: [] })
    test.change([test.account])
    const [method, params] = call.mock.lastCall!
    expect(method).toBe('standardEvent')
    expect(Protocol.frameParams.standardEvent(params)).toBe(true)
  })

  test('behavior: destroy removes every listener: the wallets\' and the page\'s', async () => {
    const test = wallet()
    registerWallet(test.wallet)
    const { request, sent, lifetime } = start()
    await request({ id: sent()[0]![0]!.id, feature: 'standard:connect', input: {} })
    lifetime.abort()
    expect(test.listeners.size).toBe(0)
    registerWallet(wallet().wallet)
    expect(sent()).toHaveLength(1)
  })
})
