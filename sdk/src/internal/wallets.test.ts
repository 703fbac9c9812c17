import * as Protocol from '@doorway/shared/Protocol'
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Wallets from './wallets.js'

const icon = 'data:image/svg+xml;base64,PHN2Zy8+'
type Listener = (data: unknown) => void
/** An EIP-1193 provider stand-in whose listeners can be read and fired. */
function wallet(rdns: string, result: unknown = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266']) {
  const listeners = new Map<string, Set<Listener>>()
  const provider = {
    request: vi.fn(() => Promise.resolve(result)),
    on: vi.fn((event: string, listener: Listener) => void listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))),
    removeListener: vi.fn((event: string, listener: Listener) => void listeners.get(event)?.delete(listener)),
  }
  const emit = (event: string, data: unknown) => listeners.get(event)?.forEach((listener) => listener(data))
  return { info: { uuid: crypto.randomUUID(), name: rdns, icon, rdns }, provider, listeners, emit }
}

/** A window stand-in that answers EIP-6963 requests with the given wallets, as extensions do. */
function page(wallets: ReturnType<typeof wallet>[], ethereum?: object) {
  const win = Object.assign(new EventTarget(), { ethereum })
  win.addEventListener('eip6963:requestProvider', () => {
    for (const { info, provider } of wallets) announce(win, info, provider)
  })
  vi.stubGlobal('window', win)
  return win
}
function announce(win: EventTarget, info: object, provider: object) {
  win.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
}
function discover() {
  const onChange = vi.fn()
  const onEvent = vi.fn()
  const log = { warn: vi.fn() }
  return { wallets: Wallets.discover({ onChange, onEvent, log }), onChange, onEvent, log }
}

afterEach(() => vi.unstubAllGlobals())

describe('discover', () => {
  test('behavior: lists announced wallets by their info only, de-duplicated by rdns', () => {
    const a = wallet('io.metamask')
    page([a, wallet('io.metamask'), wallet('com.rabby')])
    const { wallets } = discover()
    expect(wallets.list().map((w) => w.rdns)).toEqual(['io.metamask', 'com.rabby'])
    expect(Object.keys(wallets.list()[0]!).sort()).toEqual(['icon', 'name', 'rdns', 'type', 'uuid'])
    expect(wallets.list()[0]!.type).toBe('ANNOUNCED')
  })

  test('behavior: a late announcement is reported; the first ones go out with init', () => {
    const win = page([wallet('io.metamask')])
    const { wallets, onChange } = discover()
    expect(onChange).not.toHaveBeenCalled()
    const late = wallet('com.rabby')
    announce(win, late.info, late.provider)
    expect(onChange).toHaveBeenCalledWith(wallets.list())
    expect(wallets.list()).toHaveLength(2)
  })

  test('behavior: a legacy window.ethereum is offered only when nothing announces', () => {
    const legacy = wallet('x').provider
    page([], legacy)
    expect(discover().wallets.list()).toMatchObject([{ type: 'INJECTED', name: 'Browser Wallet' }])
    page([wallet('io.metamask')], legacy)
    expect(discover().wallets.list().map((w) => w.type)).toEqual(['ANNOUNCED'])
  })

  test.each<[string, object]>([
    ['no uuid', { name: 'X', icon, rdns: 'a.b' }],
    ['a script icon', { uuid: crypto.randomUUID(), name: 'X', icon: 'javascript:alert(1)', rdns: 'a.b' }],
    ['a bad rdns', { uuid: crypto.randomUUID(), name: 'X', icon, rdns: 'not a domain' }],
    ['an empty name', { uuid: crypto.randomUUID(), name: '', icon, rdns: 'a.b' }],
  ])('error: an announcement with %s is ignored and logged', (_, info) => {
    const win = page([])
    const { wallets, log } = discover()
    announce(win, info, { request: () => Promise.resolve() })
    expect(wallets.list()).toEqual([])
    expect(log.warn).toHaveBeenCalledWith('ignored wallet', info)
  })
})

describe('request', () => {
  test('behavior: runs on the announced wallet with that uuid', async () => {
    const a = wallet('io.metamask')
    page([a])
    const { wallets } = discover()
    await expect(wallets.request(a.info.uuid, { method: 'eth_accounts' })).resolves.toEqual([
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    ])
    expect(a.provider.request).toHaveBeenCalledWith({ method: 'eth_accounts' })
  })

  test('error: a uuid this page never announced is refused (4100)', async () => {
    const a = wallet('io.metamask')
    page([a])
    const { wallets } = discover()
    await expect(wallets.request(crypto.randomUUID(), { method: 'eth_requestAccounts' })).rejects.toMatchObject({
      code: 4100,
      message: 'Unknown wallet: it was not announced',
    })
    expect(a.provider.request).not.toHaveBeenCalled()
  })

  test('behavior: the used wallet’s events are forwarded with its uuid; the frame refuses malformed ones', async () => {
    const a = wallet('io.metamask')
    page([a])
    const { wallets, onEvent } = discover()
    await wallets.request(a.info.uuid, { method: 'eth_accounts' })
    a.emit('chainChanged', '0x7a6a')
    a.emit('accountsChanged', 'not a list')
    expect(onEvent).toHaveBeenNthCalledWith(1, { uuid: a.info.uuid, event: 'chainChanged', data: '0x7a6a' })
    // What the frame's channel accepts as walletEvent (Protocol.frameParams): the first, not the second.
    const [good, bad] = onEvent.mock.calls.map(([event]) => event)
    expect(Protocol.frameParams.walletEvent(good)).toBe(true)
    expect(Protocol.frameParams.walletEvent(bad)).toBe(false)
  })
})

describe('stop', () => {
  test('behavior: removes exactly the listeners it added to the used wallets, and stops discovery', async () => {
    const [a, b] = [wallet('io.metamask'), wallet('com.rabby')]
    const win = page([a, b])
    const dapp = vi.fn()
    a.provider.on('chainChanged', dapp)
    const { wallets, onChange, onEvent } = discover()
    await wallets.request(a.info.uuid, { method: 'eth_accounts' })
    await wallets.request(a.info.uuid, { method: 'eth_chainId' })
    expect(a.provider.on).toHaveBeenCalledTimes(4)
    wallets.stop()
    // Each (event, listener) pair the SDK added, once; the dapp's own stays.
    expect(a.provider.removeListener.mock.calls).toEqual(a.provider.on.mock.calls.slice(1))
    expect([...a.listeners.values()].map((set) => [...set])).toEqual([[dapp], [], []])
    expect(b.provider.removeListener).not.toHaveBeenCalled()
    a.emit('chainChanged', '0x7a6a')
    expect(dapp).toHaveBeenCalledWith('0x7a6a')
    expect(onEvent).not.toHaveBeenCalled()
    const late = wallet('io.rainbow')
    announce(win, late.info, late.provider)
    expect(onChange).not.toHaveBeenCalled()
  })

  test('behavior: a wallet without removeListener is left as it is', async () => {
    const a = wallet('io.metamask')
    page([a])
    const { wallets } = discover()
    await wallets.request(a.info.uuid, { method: 'eth_accounts' })
    delete (a.provider as { removeListener?: unknown }).removeListener
    expect(() => wallets.stop()).not.toThrow()
  })
})
