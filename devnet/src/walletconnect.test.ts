/**
 * End to end with the real SDKs: a dapp on @walletconnect/universal-provider and the test wallet on
 * @reown/walletkit, talking through the devnet relay, signing and sending against anvil. Nothing may
 * leave the machine: every TCP connection the process opens is recorded and must be loopback.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Address,
  type Hex,
  createPublicClient,
  http,
  parseEther,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import * as Relay from './relay.js'
import * as TestDapp from './testDapp.js'
import * as TestWallet from './testWallet.js'

// Ports apart from the running stack's and from anvil.test.ts's (18545–18548).
const chains = [
  { id: 31337, port: 18801, rpcUrl: 'http://127.0.0.1:18801' },
  { id: 31338, port: 18802, rpcUrl: 'http://127.0.0.1:18802' },
]
const caip = chains.map((c) => `eip155:${c.id}`)
const recipient: Address = '0x000000000000000000000000000000000000dEaD'

// Every TCP connect of the process: fetch (undici), ws and node-fetch all end in Socket#connect.
const connections: string[] = []
const originalConnect = net.Socket.prototype.connect
function recordConnect(this: net.Socket, ...args: unknown[]) {
  const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as unknown
  if (typeof first === 'object' && first !== null) {
    const o = first as { host?: string; port?: number | string; path?: string }
    if (o.path === undefined) connections.push(`${o.host ?? 'localhost'}:${o.port}`)
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    connections.push(`${typeof args[1] === 'string' ? args[1] : 'localhost'}:${first}`)
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args)
}
const isLoopback = (target: string) => /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]):\d+$/.test(target)

let storageDir: string

// Registered before useDevnet, so the recording is in place before the relay and anvil start and is
// undone only after they stop (hooks run as a stack: vitest.config.ts).
beforeAll(async () => {
  net.Socket.prototype.connect = recordConnect as typeof net.Socket.prototype.connect
  storageDir = await mkdtemp(join(tmpdir(), 'doorway-wc-'))
})

afterAll(async () => {
  net.Socket.prototype.connect = originalConnect
  if (storageDir) await rm(storageDir, { recursive: true, force: true })
})

// A restored dapp must build a fresh Core, as a reloaded page would: useDevnet sets DISABLE_GLOBAL_CORE
// for that, or the sdk would hand back the Core cached on globalThis under the same storage prefix.
const devnet = TestDapp.useDevnet(chains)
let wallet: TestWallet.TestWallet
/** The wallet's log lines: its line for a batch is what a prompt would show. */
const logged: string[] = []
type Provider = TestDapp.Provider

async function dapp(prefix: string) {
  const provider = await TestDapp.create({
    relayUrl: devnet.relay.url,
    name: 'Doorway test dapp',
    customStoragePrefix: prefix,
    // A directory, not the default memory store: the restore test reopens it from a second client.
    storageOptions: { database: join(storageDir, prefix) },
  })
  devnet.providers.push(provider)
  return provider
}

const namespaces = TestDapp.namespaces(chains, ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_switchEthereumChain'])

/** connect() on the dapp, with the QR step done by handing the URI to the test wallet. */
async function connect(provider: Provider) {
  const paired = new Promise<Awaited<ReturnType<TestWallet.TestWallet['pair']>>>((resolve, reject) =>
    provider.once('display_uri', (uri: string) => wallet.pair(uri).then(resolve, reject)),
  )
  const session = provider.connect({ optionalNamespaces: namespaces })
  return { session, paired }
}

const { close, event } = TestDapp

const receipt = (rpcUrl: string, hash: Hex) =>
  createPublicClient({ transport: http(rpcUrl) }).waitForTransactionReceipt({ hash, pollingInterval: 50 })

// After useDevnet's hooks: the wallet starts once the relay is up, and stops after the dapps close and
// before the relay does.
beforeAll(async () => {
  wallet = await TestWallet.create({ relayUrl: devnet.relay.url, chains, storagePrefix: 'test-wallet', log: (line) => logged.push(line) })
}, 30_000)

afterAll(async () => {
  await devnet.closeProviders()
  await wallet?.stop()
})

// The tests share one session and run in order: pairing, requests, events, restore, disconnect.
describe('WalletConnect over the devnet relay', () => {
  let provider: Provider

  test('behavior: pairing through the relay ends in a session with the wallet account on both chains', async () => {
    provider = await dapp('dapp')
    const { session, paired } = await connect(provider)
    const [dappSession, walletSession] = await Promise.all([session, paired])
    expect(walletSession?.topic).toBe(dappSession?.topic)
    expect(dappSession?.namespaces.eip155?.accounts).toEqual(caip.map((c) => `${c}:${wallet.address()}`))
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet.address()])
    expect(wallet.sessions()).toHaveLength(1)
    // The relay hashes subscription ids with the JWT's iss: it must be the id the sdk hashes with.
    const { core } = provider.client
    const signedUrl = (core.relayer.provider.connection as unknown as { url: string }).url
    expect(Relay.clientIdFromUrl(signedUrl)).toBe(await core.crypto.getClientId())
  })

  test('behavior: personal_sign returns a signature that verifies for the account', async () => {
    const message = 'Sign in to Doorway'
    const signature = await provider.request<Hex>({ method: 'personal_sign', params: [toHex(message), wallet.address()] })
    expect(await verifyMessage({ address: wallet.address(), message, signature })).toBe(true)
  })

  test('behavior: eth_signTypedData_v4 returns a signature that verifies', async () => {
    const typed = {
      domain: { name: 'Doorway', version: '1', chainId: 31337 },
      types: { Greeting: [{ name: 'text', type: 'string' }] },
      primaryType: 'Greeting',
      message: { text: 'hello' },
    } as const
    const signature = await provider.request<Hex>({
      method: 'eth_signTypedData_v4',
      params: [wallet.address(), JSON.stringify(typed)],
    })
    expect(await verifyTypedData({ address: wallet.address(), ...typed, signature })).toBe(true)
  })

  test('behavior: eth_sendTransaction is mined on the session chain', async () => {
    const hash = await provider.request<Hex>({
      method: 'eth_sendTransaction',
      params: [{ from: wallet.address(), to: recipient, value: toHex(parseEther('0.01')) }],
    })
    const mined = await receipt(chains[0]!.rpcUrl, hash)
    expect(mined.status).toBe('success')
    expect(mined.from.toLowerCase()).toBe(wallet.address().toLowerCase())
  })

  test('behavior: the session offers EIP-5792 (wallet_getCapabilities, wallet_sendCalls, wallet_getCallsStatus)', () => {
    expect(provider.session?.namespaces.eip155?.methods).toEqual(expect.arrayContaining(['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus']))
  })

  test('behavior: wallet_getCapabilities says no chain of the wallet is atomic', async () => {
    const none = { atomic: { status: 'unsupported' } }
    const capabilities = await provider.request({ method: 'wallet_getCapabilities', params: [wallet.address(), ['0x7a69', '0x7a6a', '0x1']] })
    expect(capabilities).toEqual({ '0x7a69': none, '0x7a6a': none })
  })

  test('behavior: wallet_sendCalls logs every call, sends them in nonce order and wallet_getCallsStatus ends at 200', async () => {
    const calls = [{ to: recipient, value: toHex(parseEther('0.001')) }, { to: recipient, value: toHex(2n), data: '0x' }]
    const params = [{ version: '2.0.0', chainId: '0x7a69', from: wallet.address(), atomicRequired: false, calls }]
    const { id } = await provider.request<{ id: string }>({ method: 'wallet_sendCalls', params })
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(logged.filter((line) => line.startsWith('approved a batch'))).toEqual([
      `approved a batch on chain 31337: Send 2 calls, one transaction each (not atomic):\n1. Send 0.001 ETH to ${recipient}\n2. Send 0.000000000000000002 ETH to ${recipient}`,
    ])
    const status = await vi.waitFor(
      async () => {
        const status = await provider.request<any>({ method: 'wallet_getCallsStatus', params: [id] })
        if (status.status === 100) throw new Error('pending')
        return status
      },
      { timeout: 15_000, interval: 200 },
    )
    expect(status).toMatchObject({ version: '2.0.0', id, chainId: '0x7a69', atomic: false, status: 200 })
    const client = createPublicClient({ transport: http(chains[0]!.rpcUrl) })
    const txs = await Promise.all(status.receipts.map((r: { transactionHash: Hex }) => client.getTransaction({ hash: r.transactionHash })))
    expect(txs.map((tx) => tx.nonce)).toEqual([txs[0]!.nonce, txs[0]!.nonce + 1])
    expect(status.receipts.map((r: { status: Hex }) => r.status)).toEqual(['0x1', '0x1'])
  })

  test.each([
    ['another chain than the wallet is on', 5710, { chainId: '0x7a6a' }],
    ['another sender', 4100, { from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }],
    ['atomicRequired', 5760, { atomicRequired: true }],
    ['a capability the wallet lacks, not optional', 5700, { capabilities: { paymasterService: { url: 'http://127.0.0.1:9' } } }],
  ])('error: wallet_sendCalls with %s → %i', async (_, code, fields) => {
    const params = [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, calls: [{ to: recipient, value: '0x1' }], ...fields }]
    await expect(provider.request({ method: 'wallet_sendCalls', params })).rejects.toMatchObject({ code })
  })

  test('error: a dapp id used already → 5720; an id never sent → 5730', async () => {
    const params = [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, id: 'wc-order-1', calls: [{ to: recipient, value: '0x1' }] }]
    expect(await provider.request({ method: 'wallet_sendCalls', params })).toEqual({ id: 'wc-order-1' })
    await expect(provider.request({ method: 'wallet_sendCalls', params })).rejects.toMatchObject({ code: 5720 })
    await expect(provider.request({ method: 'wallet_getCallsStatus', params: ['wc-order-2'] })).rejects.toMatchObject({ code: 5730 })
  })

  test('behavior: a wallet-side chain switch reaches the dapp as chainChanged, and requests follow it', async () => {
    const changed = event<string | number>(provider, 'chainChanged')
    await wallet.switchChain(31338)
    expect(Number(await changed)).toBe(31338)
    expect(await provider.request({ method: 'eth_chainId' })).toBe(31338)
    const hash = await provider.request<Hex>({
      method: 'eth_sendTransaction',
      params: [{ from: wallet.address(), to: recipient, value: toHex(1n) }],
    })
    expect((await receipt(chains[1]!.rpcUrl, hash)).status).toBe('success')
    expect(wallet.requests().at(-1)).toMatchObject({ method: 'eth_sendTransaction', chainId: 'eip155:31338' })
  })

  test('behavior: a wallet-side account change reaches the dapp as accountsChanged', async () => {
    const before = wallet.address()
    const changed = event<string[]>(provider, 'accountsChanged')
    await wallet.changeAccount(1)
    expect(wallet.address()).not.toBe(before)
    expect(await changed).toEqual([wallet.address()])
    const signature = await provider.request<Hex>({ method: 'personal_sign', params: [toHex('as account 1'), wallet.address()] })
    expect(await verifyMessage({ address: wallet.address(), message: 'as account 1', signature })).toBe(true)
  })

  test('error: a request for another account is refused with 4100', async () => {
    // The wallet is on account 1 now; account 0 is no longer in the session.
    const account0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    await expect(provider.request({ method: 'personal_sign', params: [toHex('x'), account0] })).rejects.toMatchObject({
      code: 4100,
    })
  })

  test('behavior: a new dapp client with the same storage restores the session without pairing', async () => {
    const topic = provider.session?.topic
    await close(provider)
    const restored = await dapp('dapp')
    let uris = 0
    restored.on('display_uri', () => uris++)
    expect(restored.session?.topic).toBe(topic)
    const signature = await restored.request<Hex>({ method: 'personal_sign', params: [toHex('restored'), wallet.address()] })
    expect(await verifyMessage({ address: wallet.address(), message: 'restored', signature })).toBe(true)
    expect(uris).toBe(0)
    provider = restored
  })

  test('behavior: a wallet disconnect reaches the dapp as disconnect', async () => {
    const disconnected = event<{ code: number }>(provider, 'disconnect')
    await wallet.disconnect()
    expect(await disconnected).toMatchObject({ code: 6000 })
    expect(wallet.sessions()).toHaveLength(0)
  })

  test('error: a rejected proposal rejects the dapp connect', async () => {
    wallet.onProposal('reject')
    try {
      const rejecting = await dapp('dapp-rejected')
      const { session, paired } = await connect(rejecting)
      await expect(session).rejects.toThrow(/rejected/i)
      expect(await paired).toBeUndefined()
    } finally {
      wallet.onProposal('approve')
    }
  })
})

describe('network', () => {
  test('behavior: every connection the clients opened was loopback', () => {
    expect(connections).toContain(`127.0.0.1:${devnet.relay.port}`)
    expect(connections).toContain(`127.0.0.1:${chains[0]!.port}`)
    expect(connections.filter((c) => !isLoopback(c))).toEqual([])
  })
})
