import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { configAtom } from './config.js'
import type { Connector } from './connectors/Connector.js'
import { accountsAtom, connectorsAtom, establishAtom, statusAtom, storedConnectorId } from './connection.js'
import { type Host, hostAtom } from './host.js'
import { reportWalletsAtom, standardEventAtom } from './standardWallets.js'
import { hostWalletsAtom } from './wallets.js'

// Storage picks its backend when imported and Node has no localStorage: the frame's cookie path on a fake jar.
const jar = await vi.hoisted(async () => {
  const { cookieJar } = await import('./cookieJar.testing.js')
  const jar = cookieJar()
  vi.stubGlobal('document', jar)
  return jar
})
afterAll(() => vi.unstubAllGlobals())
beforeEach(() => jar.cookies.clear())

const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const solAddress = 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96'
const otherSolAddress = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
const localnet = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' as const
const id = 'a'.repeat(32)
const account = (address: string): Protocol.StandardAccount => ({ address, publicKey: new Uint8Array(32), chains: ['solana:localnet'], features: [] })
const standardWallet: Protocol.StandardWallet = {
  id,
  name: 'Doorway Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  version: '1.0.0',
  chains: ['solana:localnet'],
  features: ['standard:connect', 'standard:disconnect'],
  accounts: [],
}
const evmWallet: Protocol.WalletInfo = { uuid: crypto.randomUUID(), name: 'Doorway Wallet', icon: 'data:image/svg+xml,', rdns: 'dev.doorway.wallet', type: 'ANNOUNCED' }

/** A store on a fake host whose Wallet Standard wallet answers standard:connect with `connected` (an Error rejects). */
function setup(connected: Protocol.StandardAccount[] | Error = [account(solAddress)]) {
  const store = createStore()
  const events: Protocol.FrameEvent[] = []
  const requests: unknown[] = []
  const call = async (method: string, params: unknown) => {
    if (method === 'event') return void events.push(params as Protocol.FrameEvent)
    requests.push(params)
    if (connected instanceof Error) throw connected
    return { accounts: connected }
  }
  store.set(hostAtom, { host: { call } as unknown as Host, warn: () => {} })
  store.set(configAtom, { networks: [{ caipNetworkId: localnet }] } as unknown as Protocol.Config)
  return { store, events, requests }
}

/** The last page load connected the Wallet Standard wallet in solana. */
function storeSolanaSession() {
  const connector: Connector = { id: 'standard:Doorway Wallet', name: 'Doorway Wallet', type: 'ANNOUNCED', namespaces: ['solana'], request: async () => null }
  createStore().set(establishAtom, { account: { connector, address: solAddress, chainId: localnet }, restored: false })
}

describe('reportWalletsAtom', () => {
  test('behavior: the reported wallets join the connectors; one also announced by EIP-6963 is one connector in both namespaces', async () => {
    const { store } = setup()
    store.set(hostWalletsAtom, [evmWallet])
    expect(store.get(connectorsAtom).map((c) => c.namespaces)).toEqual([['eip155']])
    await store.set(reportWalletsAtom, [standardWallet, { ...standardWallet, id: 'b'.repeat(32), name: 'Other' }])
    expect(store.get(connectorsAtom).map((c) => [c.name, c.namespaces])).toEqual([
      ['Doorway Wallet', ['eip155', 'solana']],
      ['Other', ['solana']],
    ])
  })

  test('behavior: a stored Solana connection reconnects silently, without settling an open() (spec §4)', async () => {
    storeSolanaSession()
    const { store, events, requests } = setup()
    const restoring = store.set(reportWalletsAtom, [standardWallet])
    expect(store.get(statusAtom).solana).toBe('connecting')
    await restoring
    expect(requests).toEqual([{ id, feature: 'standard:connect', input: { silent: true } }])
    expect(store.get(accountsAtom).solana).toMatchObject({ address: solAddress, chainId: localnet })
    expect(store.get(statusAtom).solana).toBe('connected')
    expect(events.map((e) => e.type)).toEqual(['connect'])
  })

  test('error: a stored wallet refusing the silent connect is disconnected and forgotten (spec §4)', async () => {
    storeSolanaSession()
    const { store } = setup(new Error('not trusted'))
    await store.set(reportWalletsAtom, [standardWallet])
    expect(store.get(statusAtom).solana).toBe('disconnected')
    expect(storedConnectorId()).toBeUndefined()
  })

  test('behavior: without a stored Solana connection nothing is asked', async () => {
    const { store, requests } = setup()
    await store.set(reportWalletsAtom, [standardWallet])
    expect(requests).toEqual([])
    expect(store.get(statusAtom)).toEqual({})
  })
})

describe('standardEventAtom', () => {
  async function connectedInBoth() {
    const { store, events } = setup()
    store.set(hostWalletsAtom, [evmWallet])
    await store.set(reportWalletsAtom, [standardWallet])
    const [connector] = store.get(connectorsAtom)
    store.set(establishAtom, { account: { connector: connector!, address: solAddress, chainId: localnet }, others: [{ connector: connector!, address: evmAddress, chainId: 'eip155:1' }], restored: false })
    events.length = 0
    return { store, events }
  }

  test('behavior: another first account is the new Solana account, told to the host (spec §4 resync)', async () => {
    const { store, events } = await connectedInBoth()
    store.set(standardEventAtom, { id, accounts: [account(otherSolAddress)] })
    expect(store.get(accountsAtom).solana?.address).toBe(otherSolAddress)
    expect(events).toEqual([{ type: 'accountChanged', account: { address: otherSolAddress, caipAddress: `${localnet}:${otherSolAddress}`, chainId: localnet } }])
  })

  test('behavior: no account left disconnects solana only while another namespace stays connected', async () => {
    const { store, events } = await connectedInBoth()
    store.set(standardEventAtom, { id, accounts: [] })
    expect(store.get(accountsAtom).solana).toBeUndefined()
    expect(store.get(statusAtom)).toEqual({ solana: 'disconnected', eip155: 'connected' })
    expect(events).toEqual([])
  })

  test('param: another wallet\'s event, or the account still held, changes nothing', async () => {
    const { store, events } = await connectedInBoth()
    store.set(standardEventAtom, { id: 'b'.repeat(32), accounts: [] })
    store.set(standardEventAtom, { id, accounts: [account(otherSolAddress), account(solAddress)] })
    expect(store.get(accountsAtom).solana?.address).toBe(solAddress)
    expect(events).toEqual([])
  })
})
