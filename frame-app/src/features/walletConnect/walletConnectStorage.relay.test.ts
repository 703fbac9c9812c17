/**
 * The frame's WalletConnect storage (frame-app/src/features/walletConnect/walletConnectStorage.ts) under the real
 * UniversalProvider, the test wallet and the devnet relay, persisting into partitioned cookies as the
 * cross-site frame must: a session survives a reload on the few keys it keeps, in a few KB that do not
 * grow with use.
 */
import { type Hex, toHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as WalletConnectStorage from './walletConnectStorage.js'
import { cookieBackend } from '../../core/storage.js'
import * as TestWallet from '@doorway/devnet/testWallet'
import { cookieJar as jar } from '../../core/cookieJar.testing.js'
import * as TestDapp from '@doorway/devnet/testDapp'

// Ports apart from the running stack's, anvil.test.ts's and walletconnect.test.ts's.
const chains = [
  { id: 31337, port: 18811, rpcUrl: 'http://127.0.0.1:18811' },
  { id: 31338, port: 18812, rpcUrl: 'http://127.0.0.1:18812' },
]
/** Partitioned cookies the frame may spend on WalletConnect (Chromium allows about 10 KB per partition). */
const budgetBytes = 6_000

// A reloaded frame builds a fresh Core: useDevnet sets DISABLE_GLOBAL_CORE for that.
const devnet = TestDapp.useDevnet(chains)
let wallet: TestWallet.TestWallet
type Provider = TestDapp.Provider

/** One page load of the frame: a storage over the cookie jar, and the provider on it. */
async function load(doc: ReturnType<typeof jar>) {
  const page = new EventTarget()
  const storage = WalletConnectStorage.create({ backend: cookieBackend(doc), page })
  const provider = await TestDapp.create({ relayUrl: devnet.relay.url, name: 'Doorway frame', storage })
  devnet.providers.push(provider)
  const unload = async () => {
    page.dispatchEvent(new Event('pagehide'))
    await close(provider)
  }
  return { storage, provider, unload }
}

const { close } = TestDapp

/** The keys a reload would read back, topics elided. */
const persistedKeys = async (doc: ReturnType<typeof jar>) =>
  (await WalletConnectStorage.create({ backend: cookieBackend(doc) }).getKeys()).map((key) => key.replace(/[0-9a-f]{64}$/, '<topic>'))

const sign = async (provider: Provider, message: string) => {
  const signature = await provider.request<Hex>({ method: 'personal_sign', params: [toHex(message), wallet.address()] })
  return verifyMessage({ address: wallet.address(), message, signature })
}

// After useDevnet's hooks: the wallet starts once the relay is up, and stops after the dapps close and
// before the relay does.
beforeAll(async () => {
  wallet = await TestWallet.create({ relayUrl: devnet.relay.url, chains, storagePrefix: 'test-wallet-storage' })
}, 30_000)

afterAll(async () => {
  await devnet.closeProviders()
  await wallet?.stop()
})

// The tests share one cookie jar and one session and run in order: connect, use, reload, disconnect.
describe('WalletConnectStorage with the real sdk', () => {
  const doc = jar()
  let frame: Awaited<ReturnType<typeof load>>
  const sizes: Record<string, number> = {}

  test('behavior: a new session persists only the keys a reload needs, within the cookie budget', async () => {
    frame = await load(doc)
    const paired = new Promise((resolve, reject) =>
      frame.provider.once('display_uri', (uri: string) => wallet.pair(uri).then(resolve, reject)),
    )
    await Promise.all([
      frame.provider.connect({ optionalNamespaces: TestDapp.namespaces(chains, ['personal_sign']) }),
      paired,
    ])
    expect(await sign(frame.provider, 'first')).toBe(true)
    frame.storage.flush()
    expect(await persistedKeys(doc)).toMatchInlineSnapshot(`
      [
        "wc@2:core:0.3//keychain",
        "wc@2:core:0.3//subscription",
        "wc@2:client:0.3//session",
        "wc@2:universal_provider:/namespaces<topic>",
        "wc@2:universal_provider:/optionalNamespaces<topic>",
      ]
    `)
    sizes.connected = doc.cookie.length
    expect(sizes.connected).toBeLessThan(budgetBytes)
  })

  // The wallet's sign client takes one request a second off its queue: five signatures take five seconds.
  test('behavior: the persisted size does not grow with requests', async () => {
    for (let i = 0; i < 5; i++) expect(await sign(frame.provider, `request ${i}`)).toBe(true)
    frame.storage.flush()
    sizes.afterRequests = doc.cookie.length
    console.info(`WalletConnect cookies: ${sizes.connected} B connected, ${sizes.afterRequests} B after 5 more signatures`)
    expect(sizes.afterRequests).toBe(sizes.connected)
  }, 30_000)

  test('behavior: a reloaded frame restores the session from the cookies and signs without pairing', async () => {
    const topic = frame.provider.session?.topic
    await frame.unload()
    frame = await load(doc)
    let uris = 0
    frame.provider.on('display_uri', () => uris++)
    expect(frame.provider.session?.topic).toBe(topic)
    expect(await sign(frame.provider, 'restored')).toBe(true)
    // Reads go to the dapp's rpcMap, restored with the session, not to rpc.walletconnect.org.
    expect(await frame.provider.request({ method: 'eth_blockNumber' })).toMatch(/^0x[0-9a-f]+$/)
    expect(uris).toBe(0)
  })

  test('behavior: a wallet disconnect reaches the restored provider and leaves no cookies', async () => {
    const deleted = new Promise<{ topic: string }>((resolve) => frame.provider.once('session_delete', resolve))
    const disconnected = new Promise<{ code: number }>((resolve) => frame.provider.once('disconnect', resolve))
    const topic = frame.provider.session?.topic
    await wallet.disconnect()
    expect(await deleted).toMatchObject({ topic })
    expect(await disconnected).toMatchObject({ code: 6000 })
    frame.storage.flush()
    expect(doc.cookie).toBe('')
  })
})
