/**
 * EIP-5792 through the frame's WalletConnect connector (issue 25): the real connector and UniversalProvider,
 * the devnet relay and the test wallet, sending on anvil. A wallet that approved wallet_sendCalls,
 * wallet_getCallsStatus and wallet_getCapabilities answers them; one that did not gets no request, and the
 * dapp hears 4200.
 */
import * as TestDapp from '@doorway/devnet/testDapp'
import * as TestWallet from '@doorway/devnet/testWallet'
import type * as Protocol from '@doorway/shared/Protocol'
import { UniversalProvider } from '@walletconnect/universal-provider'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import * as WalletConnect from './walletConnectConnector.js'

// Ports apart from the running stack's and the other WalletConnect tests'.
const chains = [{ id: 31337, port: 18831, rpcUrl: 'http://127.0.0.1:18831' }]
const networks: Protocol.Network[] = chains.map((c) => ({
  caipNetworkId: `eip155:${c.id}`,
  name: `Anvil ${c.id}`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrl: c.rpcUrl,
  testnet: true,
}))
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const calls = ['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus'] as const

// Each connector builds its own Core, as separate frames would: useDevnet sets DISABLE_GLOBAL_CORE for that.
const devnet = TestDapp.useDevnet(chains)
let full: TestWallet.TestWallet
let lacking: TestWallet.TestWallet

// After useDevnet's hooks: the wallets start once the relay is up, and stop after the connectors close.
beforeAll(async () => {
  ;[full, lacking] = await Promise.all([
    TestWallet.create({ relayUrl: devnet.relay.url, chains, storagePrefix: 'connector-full' }),
    // A wallet from before EIP-5792: its sessions offer every method but those.
    TestWallet.create({ relayUrl: devnet.relay.url, chains, storagePrefix: 'connector-lacking', methods: TestWallet.methods.filter((m) => !(calls as readonly string[]).includes(m)) }),
  ])
}, 30_000)

afterAll(async () => {
  await devnet.closeProviders()
  await Promise.all([full?.stop(), lacking?.stop()])
})

/** The frame's connector, paired with `wallet` as the QR step would; its provider is closed with the devnet. */
async function paired(wallet: TestWallet.TestWallet) {
  const init = vi.spyOn(UniversalProvider, 'init')
  const client = await WalletConnect.create({
    projectId: 'doorway-test',
    relayUrl: devnet.relay.url,
    networks,
    metadata: { name: 'Doorway frame', description: 'the modal', url: 'http://127.0.0.1', icons: [] },
  })
  devnet.providers.push(await init.mock.results[0]!.value)
  let walletSide: Promise<unknown> = Promise.resolve()
  await client.pair((uri) => (walletSide = wallet.pair(uri)))
  await walletSide
  return client.connector
}

describe('WalletConnect connector and EIP-5792', () => {
  test('behavior: the session the connector proposes asks for the EIP-5792 methods', () => {
    expect(WalletConnect.methods).toEqual(expect.arrayContaining([...calls, 'wallet_showCallsStatus']))
  })

  test('behavior: a wallet that approved them gets the batch; its status and capabilities come back', async () => {
    const connector = await paired(full)
    const address = full.address()
    expect(await connector.request({ method: 'wallet_getCapabilities', params: [address, ['0x7a69']] })).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } } })
    const batch = { version: '2.0.0', chainId: '0x7a69', from: address, atomicRequired: false, calls: [{ to: recipient, value: '0x1' }, { to: recipient, value: '0x2' }] }
    const { id } = (await connector.request({ method: 'wallet_sendCalls', params: [batch] })) as { id: string }
    const status = await vi.waitFor(
      async () => {
        const status = (await connector.request({ method: 'wallet_getCallsStatus', params: [id] })) as { status: number; receipts: { status: string }[] }
        if (status.status === 100) throw new Error('pending')
        return status
      },
      { timeout: 15_000, interval: 200 },
    )
    expect(status).toMatchObject({ id, status: 200, atomic: false, receipts: [{ status: '0x1' }, { status: '0x1' }] })
    // Its EIP-5792 errors keep their codes through the connector.
    await expect(connector.request({ method: 'wallet_sendCalls', params: [{ ...batch, atomicRequired: true }] })).rejects.toMatchObject({ code: 5760 })
  }, 30_000)

  test.each([...calls, 'wallet_showCallsStatus'])('error: a wallet that did not approve %s is not asked; the dapp hears 4200', async (method) => {
    const connector = await paired(lacking)
    const asked = lacking.requests().length
    const request = connector.request({ method, params: [`0x${'ab'.repeat(32)}`] })
    await expect(request).rejects.toMatchObject({ code: 4200 })
    // viem's sendCalls experimental_fallback falls back to eth_sendTransaction on this text.
    await expect(request).rejects.toThrow('does not exist / is not available')
    expect(lacking.requests()).toHaveLength(asked)
  })
})
