// @vitest-environment jsdom
import * as Ids from '@doorway/shared/Ids'
import * as Protocol from '@doorway/shared/Protocol'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createModal } from './Modal.js'
import type { NetworkOption } from './types.js'

const frameUrl = 'https://frame.example/'
const anvil = { id: 31337, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }
const state: Protocol.ModalState = { open: true, view: 'Connect', loading: false, status: 'disconnected' }
const sent = { status: 'sent', hash: `0x${'ab'.repeat(32)}`, chainId: 'eip155:31337' } as const
const solanaTestnet = { id: 'testnet', caipNetworkId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', name: 'Solana Testnet', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 } } as const

/** Plays the frame: answers the handshake, records the SDK's calls and answers them with `state`, or with `errors[method]`. */
async function frame(modal: { element: HTMLElement }, errors: Record<string, { code: number; message: string }> = {}) {
  const iframe = modal.element as HTMLIFrameElement
  // The SDK places and loads its frame after the host's first paint (issue 14).
  await vi.waitFor(() => expect(iframe.src).toBe(frameUrl))
  const port = await new Promise<MessagePort>((resolve) => {
    iframe.contentWindow!.postMessage = (_: unknown, __: unknown, transfer?: Transferable[]) => resolve(transfer![0] as MessagePort)
    const ready = { type: Protocol.handshake.ready, version: Protocol.version }
    window.dispatchEvent(new MessageEvent('message', { data: ready, origin: new URL(frameUrl).origin, source: iframe.contentWindow }))
  })
  const calls: { method: string; params: unknown }[] = []
  const replies = new Map<string, (value: unknown) => void>()
  port.addEventListener('message', ({ data }) => {
    if (data.type !== 'APPLY') return replies.get(data.id)?.(data.value)
    const method = data.path[0]
    const params = data.argumentList[0].value
    calls.push({ method, params })
    const value = method === 'open' ? { ...state, view: params.view ?? 'Connect' } : method === 'standardWallets' ? null : state
    const error = errors[method]
    port.postMessage({ id: data.id, type: 'RAW', value: error ? { ok: false, error } : { ok: true, value } })
  })
  port.start()
  /** Calls the SDK's side, as the frame does (an event, a request on a host wallet); answers the reply's envelope. */
  const call = (method: keyof Protocol.HostApi['params'], params: unknown) =>
    new Promise((resolve) => {
      const id = Ids.random()
      replies.set(id, resolve)
      port.postMessage({ id, type: 'APPLY', path: [method], argumentList: [{ type: 'RAW', value: params }] })
    })
  await vi.waitFor(() => expect(calls.map((c) => c.method)).toContain('init'))
  return { calls, call, port }
}

let cleanup: (() => void)[] = []
function setup(networks: NetworkOption[] = [anvil]) {
  const loadStandard = vi.fn(() => import('./standard/index.js'))
  const modal = createModal({ projectId: 'p', networks, frameUrl, embedded: document.body }, loadStandard)
  cleanup.push(() => modal.destroy())
  const connect = (errors?: Parameters<typeof frame>[1]) => frame(modal, errors).then((f) => (cleanup.push(() => f.port.close()), f))
  return { modal, frame: connect, loadStandard }
}

beforeEach(() => vi.stubGlobal('__DOORWAY_VERSION__', 'html-doorway-test'))
afterEach(() => {
  for (const done of cleanup) done()
  cleanup = []
  vi.useRealTimers()
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe('open', () => {
  test('param: arguments go to the frame with the Send view', async () => {
    const { modal, frame: connect } = setup()
    const { calls } = await connect()
    void modal.open({ view: 'Send', arguments: { amount: '0.01', to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' } })
    await vi.waitFor(() => expect(calls.at(-1)?.method).toBe('open'))
    expect(calls.at(-1)?.params).toEqual({ view: 'Send', arguments: { amount: '0.01', to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' } })
    expect(Protocol.frameParams.open(calls.at(-1)?.params)).toBe(true)
  })

  test('behavior: a sent result settles open() and leaves the modal open', async () => {
    const { modal, frame: connect } = setup()
    const { call } = await connect()
    const onClose = vi.fn()
    modal.subscribe('close', onClose)
    const opened = modal.open({ view: 'Send' })
    await call('event', { type: 'result', result: sent })
    await expect(opened).resolves.toEqual(sent)
    expect(onClose).not.toHaveBeenCalled()
    await call('event', { type: 'close', result: { status: 'closed' } })
    expect(onClose).toHaveBeenCalledExactlyOnceWith({ status: 'closed' })
  })
})

describe('loading (issue 14)', () => {
  test('behavior: the frame is placed and loaded only after the first paint; open() loads it at once', async () => {
    const { modal } = setup()
    const iframe = modal.element as HTMLIFrameElement
    expect(iframe.isConnected).toBe(false)
    expect(iframe.src).toBe('')
    await vi.waitFor(() => expect(iframe.src).toBe(frameUrl))
    expect(iframe.isConnected).toBe(true)

    const early = createModal({ projectId: 'p', networks: [anvil], frameUrl, embedded: document.body }, () => import('./standard/index.js'))
    cleanup.push(() => early.destroy())
    void early.open().catch(() => {})
    expect((early.element as HTMLIFrameElement).src).toBe(frameUrl)
    expect(early.element.isConnected).toBe(true)
  })
})

describe('destroy', () => {
  test('behavior: removes every window listener and timer it added, and the wallet listeners', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const added = vi.spyOn(window, 'addEventListener')
    const removed = vi.spyOn(window, 'removeEventListener')
    const wallet = { on: vi.fn(), removeListener: vi.fn(), request: vi.fn(() => Promise.resolve(['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'])) }
    const info = { uuid: crypto.randomUUID(), name: 'Dev', icon: 'data:image/svg+xml,', rdns: 'dev.wallet' }
    window.addEventListener('eip6963:requestProvider', () =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider: wallet } })),
    )
    added.mockClear()
    const { modal, frame: connect } = setup()
    const { call } = await connect()
    await call('walletRequest', { uuid: info.uuid, request: { method: 'eth_accounts' } })
    modal.destroy()
    expect(removed.mock.calls).toEqual(added.mock.calls)
    expect(wallet.removeListener.mock.calls).toEqual(wallet.on.mock.calls)
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: before the frame answers, stops discovery and the load timer', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const added = vi.spyOn(window, 'addEventListener')
    const removed = vi.spyOn(window, 'removeEventListener')
    const { modal } = setup()
    expect(added).toHaveBeenCalledTimes(2)
    modal.destroy()
    expect(removed.mock.calls).toEqual(added.mock.calls)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('runtime networks (spec §4 "Account type and adapters")', () => {
  test('param: each call goes to the frame with its networks converted; a viem chain takes the namespace given', async () => {
    const { modal, frame: connect } = setup()
    const { calls } = await connect()
    const base = { id: 8453, name: 'Base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['https://base.example'] } } }
    await modal.addNetwork('eip155', base)
    await modal.removeNetwork('eip155', 8453)
    await modal.addAdapter({ namespace: 'bip122' }, [{ id: '000000000019d6689c085ae165831e93', name: 'Bitcoin', nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 } }])
    await modal.removeAdapter('bip122')
    const edits = calls.filter((c) => c.method === 'editNetworks').map((c) => c.params)
    expect(edits).toEqual([
      { op: 'addNetwork', namespace: 'eip155', network: { caipNetworkId: 'eip155:8453', name: 'Base', nativeCurrency: base.nativeCurrency, rpcUrl: 'https://base.example', testnet: false } },
      { op: 'removeNetwork', namespace: 'eip155', id: 8453 },
      { op: 'addAdapter', namespace: 'bip122', networks: [expect.objectContaining({ caipNetworkId: 'bip122:000000000019d6689c085ae165831e93' })] },
      { op: 'removeAdapter', namespace: 'bip122' },
    ])
    expect(edits.every(Protocol.frameParams.editNetworks)).toBe(true)
  })

  test('error: the frame\'s refusal reaches the dapp as its typed error', async () => {
    const { modal, frame: connect } = setup()
    await connect({ editNetworks: { code: 5000, message: 'Cannot remove last network for a namespace' } })
    await expect(modal.removeNetwork('eip155', 31337)).rejects.toMatchObject({ code: 5000, message: 'Cannot remove last network for a namespace' })
  })

  test('error: a network that is not one is refused before it is sent', async () => {
    const { modal, frame: connect } = setup()
    const { calls } = await connect()
    await expect(modal.addNetwork('eip155', null as never)).rejects.toMatchObject({ name: 'ConfigError' })
    expect(calls.map((c) => c.method)).not.toContain('editNetworks')
  })
})

describe('Wallet Standard chunk (issue 23)', () => {
  test('behavior: loaded only with a solana network, at createModal or when one is added', async () => {
    const evm = setup()
    const { calls } = await evm.frame()
    expect(evm.loadStandard).not.toHaveBeenCalled()
    await evm.modal.addNetwork('eip155', { ...anvil, id: 31338 })
    expect(evm.loadStandard).not.toHaveBeenCalled()
    await evm.modal.addAdapter({ namespace: 'solana' }, [solanaTestnet])
    expect(evm.loadStandard).toHaveBeenCalledOnce()
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toContain('standardWallets'))
    await evm.modal.addNetwork('solana', { ...solanaTestnet, caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' })
    expect(evm.loadStandard).toHaveBeenCalledOnce()

    const solana = setup([anvil, solanaTestnet])
    expect(solana.loadStandard).toHaveBeenCalledOnce()
    const frame = await solana.frame()
    await vi.waitFor(() => expect(frame.calls.find((c) => c.method === 'standardWallets')?.params).toEqual({ wallets: [] }))
  })

  test('error: a feature outside the allowlist is refused by the chunk, even one the wallet has', async () => {
    const signAll = vi.fn(async () => [])
    const wallet = {
      version: '1.0.0',
      name: 'Phantasm',
      icon: 'data:image/svg+xml,',
      chains: ['solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'],
      accounts: [],
      features: {
        'standard:connect': { connect: async () => ({ accounts: [] }) },
        'solana:signTransaction': { signTransaction: async () => [] },
        'solana:signAllTransactions': { signAllTransactions: signAll },
      },
    }
    // As a wallet does: it answers the page's app-ready with itself.
    const appReady = (event: Event) => (event as CustomEvent<{ register(w: unknown): void }>).detail.register(wallet)
    window.addEventListener('wallet-standard:app-ready', appReady, { once: true })
    const { frame: connect } = setup([anvil, solanaTestnet])
    const { calls, call } = await connect()
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'standardWallets')).toBeDefined())
    const { id } = (calls.find((c) => c.method === 'standardWallets')!.params as { wallets: { id: string }[] }).wallets[0]!
    const reply = await call('standardRequest', { id, feature: 'solana:signAllTransactions', input: {} })
    expect(reply).toMatchObject({ ok: false, error: { code: 4200 } })
    expect(signAll).not.toHaveBeenCalled()
  })

  test('error: a standardRequest before the chunk loaded is refused', async () => {
    const { frame: connect } = setup()
    const { call } = await connect()
    const reply = await call('standardRequest', { id: 'a'.repeat(32), feature: 'standard:connect', input: {} })
    expect(reply).toMatchObject({ ok: false, error: { code: 4100 } })
  })
})
