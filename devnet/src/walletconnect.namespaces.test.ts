/**
 * End to end with the real SDKs, beyond eip155: a dapp on @walletconnect/universal-provider asks for
 * eip155, solana, bip122 and polkadot at once, and the test wallet (@reown/walletkit) answers over the
 * devnet relay, sending to the devnet's Solana chain (solana/rpc.ts) and Esplora stand-in
 * (bitcoin/esplora.ts). Polkadot has no chain here: its signatures are verified. Nothing may leave the
 * machine: every TCP connection the process opens is recorded and must be loopback.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { ed25519 } from '@noble/curves/ed25519'
import { Keyring } from '@polkadot/keyring'
import { bnToU8a, compactToU8a, hexToU8a, stringToHex, u8aConcat, u8aWrapBytes } from '@polkadot/util'
import { cryptoWaitReady, signatureVerify } from '@polkadot/util-crypto'
import { base58, base64, hex } from '@scure/base'
import { Transaction as BitcoinTransaction, p2wpkh } from '@scure/btc-signer'
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { type Hex, toHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Esplora from './bitcoin/esplora.js'
import * as BitcoinKeys from './bitcoin/keys.js'
import * as BitcoinWallet from './bitcoin/wallet.js'
import * as SolanaKeys from './solana/keys.js'
import * as SolanaRpc from './solana/rpc.js'
import * as TestDapp from './testDapp.js'
import * as TestWallet from './testWallet.js'

// Ports apart from the running stack's and the other WalletConnect tests' (18801–18822).
const chains = [{ id: 31337, port: 18841, rpcUrl: 'http://127.0.0.1:18841' }]
const polkadotChain = 'polkadot:91b171bb158e2d3848fa23a9f1c25182' as const
const methods = {
  solana: ['solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signMessage', 'solana_getAccounts'],
  bip122: ['getAccountAddresses', 'signMessage', 'sendTransfer', 'signPsbt'],
  polkadot: ['polkadot_signTransaction', 'polkadot_signMessage'],
}

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

/**
 * The JSON-RPC node the dapp's provider falls back to for bip122 and polkadot (UniversalProvider sends
 * every method the session does not list to rpcMap: shared/notes/namespaces.md §3): it knows no method,
 * and records what reached it.
 */
function startNoNode() {
  const seen: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const { id = null, method = '' } = (() => {
        try {
          return JSON.parse(body) as { id?: number; method?: string }
        } catch {
          return {}
        }
      })()
      seen.push(method)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } }))
    })
  })
  return new Promise<{ url: string; seen: string[]; stop(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({ url: `http://127.0.0.1:${port}`, seen, stop: () => new Promise((done) => server.close(() => done())) })
    }),
  )
}

beforeAll(() => {
  net.Socket.prototype.connect = recordConnect as typeof net.Socket.prototype.connect
})
afterAll(() => {
  net.Socket.prototype.connect = originalConnect
})

const devnet = TestDapp.useDevnet(chains)
let solana: Awaited<ReturnType<typeof SolanaRpc.start>>
let esplora: Awaited<ReturnType<typeof Esplora.start>>
let noNode: Awaited<ReturnType<typeof startNoNode>>
let wallet: TestWallet.TestWallet

// After useDevnet's hooks: the chains and the wallet start once the relay is up; the wallet stops after
// the dapps close and before the relay does.
beforeAll(async () => {
  ;[solana, esplora, noNode] = await Promise.all([SolanaRpc.start({ port: 0 }), Esplora.start({ port: 0 }), startNoNode(), cryptoWaitReady()])
  wallet = await TestWallet.create({
    relayUrl: devnet.relay.url,
    chains,
    storagePrefix: 'test-wallet-namespaces',
    solana: { rpcUrl: solana.url, chainId: solana.chainId },
    bitcoin: { esploraUrl: esplora.url, chainId: esplora.chainId },
    polkadot: { chainId: polkadotChain },
  })
}, 30_000)

afterAll(async () => {
  await devnet.closeProviders()
  await wallet?.stop()
  await Promise.all([solana?.stop(), esplora?.stop(), noNode?.stop()])
})

type Provider = TestDapp.Provider

async function dapp(prefix: string) {
  const provider = await TestDapp.create({ relayUrl: devnet.relay.url, name: 'Doorway namespaces dapp', customStoragePrefix: prefix })
  devnet.providers.push(provider)
  return provider
}

/** What a dapp asks for in each namespace, with every read pointed at loopback. */
function asked() {
  return {
    solana: { chains: [solana.chainId], methods: methods.solana, events: [], rpcMap: { [solana.chainId]: solana.url } },
    bip122: { chains: [esplora.chainId], methods: methods.bip122, events: ['bip122_addressesChanged'], rpcMap: { [esplora.chainId]: noNode.url } },
    polkadot: { chains: [polkadotChain], methods: methods.polkadot, events: ['chainChanged', 'accountsChanged'], rpcMap: { [polkadotChain]: noNode.url } },
  }
}

/** connect() on the dapp, with the QR step done by handing the URI to the test wallet. */
async function connect(provider: Provider, optionalNamespaces: Record<string, unknown>) {
  const paired = new Promise<unknown>((resolve, reject) => provider.once('display_uri', (uri: string) => wallet.pair(uri).then(resolve, reject)))
  const [session] = await Promise.all([provider.connect({ optionalNamespaces } as Parameters<Provider['connect']>[0]), paired])
  return session
}

/** Waits until the Solana chain reports the signature (the frame's rule: poll getSignatureStatuses). */
async function landed(connection: Connection, signature: string) {
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature])
    if (value[0]) return value[0]
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function sats(address: string) {
  const info = (await (await fetch(`${esplora.url}/address/${address}`)).json()) as Record<'chain_stats' | 'mempool_stats', Record<string, number>>
  const { chain_stats: c, mempool_stats: m } = info
  return c.funded_txo_sum! - c.spent_txo_sum! + m.funded_txo_sum! - m.spent_txo_sum!
}

// These share one session and run in order.
describe('one session with eip155, solana, bip122 and polkadot', () => {
  let provider: Provider
  const solanaKey = () => SolanaKeys.keypair(0)
  const bitcoinKey = BitcoinKeys.payment(0)
  const request = <T>(method: string, params: object, chainId: string) => provider.request<T>({ method, params }, chainId)

  test('behavior: the session carries an account in each namespace the dapp asked for', async () => {
    provider = await dapp('dapp-namespaces')
    const session = await connect(provider, { ...TestDapp.namespaces(chains, ['personal_sign']), ...asked() })
    const others = Object.fromEntries(wallet.otherAccounts().map((a) => [a.namespace, a]))
    expect(others).toEqual({
      solana: { namespace: 'solana', chainId: solana.chainId, address: solanaKey().publicKey.toBase58() },
      bip122: { namespace: 'bip122', chainId: esplora.chainId, address: bitcoinKey.address },
      // Alice with Polkadot's own SS58 prefix (0), as on its genesis hash.
      polkadot: { namespace: 'polkadot', chainId: polkadotChain, address: '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5' },
    })
    const namespaces = session?.namespaces ?? {}
    expect(Object.keys(namespaces).sort()).toEqual(['bip122', 'eip155', 'polkadot', 'solana'])
    for (const { namespace, chainId, address } of Object.values(others)) expect(namespaces[namespace]?.accounts).toEqual([`${chainId}:${address}`])
    expect(await request('solana_getAccounts', {}, solana.chainId)).toEqual([{ pubkey: solanaKey().publicKey.toBase58() }])
  })

  test('behavior: solana_signMessage signs the raw bytes with ed25519', async () => {
    const message = new TextEncoder().encode('Sign in to Doorway')
    const pubkey = solanaKey().publicKey.toBase58()
    const { signature } = await request<{ signature: string }>('solana_signMessage', { message: base58.encode(message), pubkey }, solana.chainId)
    expect(ed25519.verify(base58.decode(signature), message, solanaKey().publicKey.toBytes())).toBe(true)
  })

  test('error: solana_signMessage for another pubkey is refused with 4100', async () => {
    const other = SolanaKeys.keypair(1).publicKey.toBase58()
    await expect(request('solana_signMessage', { message: base58.encode(Uint8Array.of(1)), pubkey: other }, solana.chainId)).rejects.toMatchObject({ code: 4100 })
  })

  test('behavior: a SOL transfer signed with solana_signTransaction lands on the devnet chain', async () => {
    const connection = new Connection(solana.url, 'confirmed')
    const from = solanaKey().publicKey
    await solana.airdrop(from.toBase58(), 5n * BigInt(LAMPORTS_PER_SOL))
    const to = Keypair.generate().publicKey
    const { blockhash } = await connection.getLatestBlockhash()
    const unsigned = new Transaction({ feePayer: from, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: LAMPORTS_PER_SOL }))
    const params = { transaction: base64.encode(unsigned.serialize({ requireAllSignatures: false, verifySignatures: false })) }
    const { signature, transaction } = await request<{ signature: string; transaction: string }>('solana_signTransaction', params, solana.chainId)
    expect(await connection.sendRawTransaction(base64.decode(transaction))).toBe(signature)
    expect((await landed(connection, signature)).err).toBeNull()
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL)
  })

  test('behavior: solana_signAndSendTransaction sends it itself and answers the signature', async () => {
    const connection = new Connection(solana.url, 'confirmed')
    const from = solanaKey().publicKey
    const to = Keypair.generate().publicKey
    const { blockhash } = await connection.getLatestBlockhash()
    const unsigned = new Transaction({ feePayer: from, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: LAMPORTS_PER_SOL / 2 }))
    const params = { transaction: base64.encode(unsigned.serialize({ requireAllSignatures: false, verifySignatures: false })), sendOptions: { skipPreflight: false } }
    const { signature } = await request<{ signature: string }>('solana_signAndSendTransaction', params, solana.chainId)
    expect((await landed(connection, signature)).err).toBeNull()
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL / 2)
  })

  test('error: a transaction the wallet is not a signer of is refused with 4100', async () => {
    const stranger = Keypair.generate().publicKey
    const unsigned = new Transaction({ feePayer: stranger, recentBlockhash: new PublicKey(1).toBase58() }).add(
      SystemProgram.transfer({ fromPubkey: stranger, toPubkey: solanaKey().publicKey, lamports: 1 }),
    )
    const params = { transaction: base64.encode(unsigned.serialize({ requireAllSignatures: false, verifySignatures: false })) }
    await expect(request('solana_signTransaction', params, solana.chainId)).rejects.toMatchObject({ code: 4100 })
  })

  test('behavior: getAccountAddresses lists the payment address with its key and path', async () => {
    const addresses = await request('getAccountAddresses', { account: bitcoinKey.address }, esplora.chainId)
    expect(addresses).toEqual([{ address: bitcoinKey.address, publicKey: hex.encode(bitcoinKey.publicKey), path: bitcoinKey.path, intention: 'payment' }])
  })

  test('behavior: sendTransfer is accepted by the Esplora stand-in and the balance moves', async () => {
    await esplora.faucet(bitcoinKey.address, 200_000n)
    const recipient = BitcoinKeys.payment(7).address
    const [before, received] = [await sats(bitcoinKey.address), await sats(recipient)]
    const { txid } = await request<{ txid: string }>('sendTransfer', { account: bitcoinKey.address, recipientAddress: recipient, amount: '25000' }, esplora.chainId)
    expect(await (await fetch(`${esplora.url}/tx/${txid}/status`)).json()).toMatchObject({ confirmed: true })
    expect((await sats(recipient)) - received).toBe(25_000)
    const spent = before - (await sats(bitcoinKey.address))
    expect(spent).toBeGreaterThan(25_000)
    expect(spent).toBeLessThan(26_000)
  })

  test.each([
    ['a negative amount', { amount: '-5' }],
    ['an amount in BTC', { amount: '0.001' }],
    ['an amount under the dust limit', { amount: '100' }],
    ['a mainnet recipient', { recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }],
    ['a memo', { memo: 'hello' }],
  ])('param: sendTransfer with %s is refused with -32602', async (_, change) => {
    const params = { account: bitcoinKey.address, recipientAddress: BitcoinKeys.payment(7).address, amount: '1000', ...change }
    await expect(request('sendTransfer', params, esplora.chainId)).rejects.toMatchObject({ code: -32602 })
  })

  test('behavior: signPsbt signs the listed input and broadcasts it', async () => {
    const [utxo] = (await (await fetch(`${esplora.url}/address/${bitcoinKey.address}/utxo`)).json()) as { txid: string; vout: number; value: number }[]
    const recipient = BitcoinKeys.payment(8).address
    const tx = new BitcoinTransaction()
    tx.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script: p2wpkh(bitcoinKey.publicKey, BitcoinKeys.network).script, amount: BigInt(utxo!.value) } })
    tx.addOutputAddress(recipient, 10_000n, BitcoinKeys.network)
    tx.addOutputAddress(bitcoinKey.address, BigInt(utxo!.value) - 10_000n - 1_000n, BitcoinKeys.network)
    const params = { account: bitcoinKey.address, psbt: base64.encode(tx.toPSBT()), signInputs: [{ address: bitcoinKey.address, index: 0 }], broadcast: true }
    const result = await request<{ psbt: string; txid: string }>('signPsbt', params, esplora.chainId)
    expect(result.txid).toBe(BitcoinWallet.finalizePsbt(result.psbt).txid)
    expect(await sats(recipient)).toBe(10_000)
  })

  test('behavior: signMessage answers a BIP-137 signature of the payment address', async () => {
    const result = await request<{ address: string; signature: string }>('signMessage', { account: bitcoinKey.address, message: 'hello bitcoin' }, esplora.chainId)
    expect(result.address).toBe(bitcoinKey.address)
    expect(BitcoinWallet.verifyMessage('hello bitcoin', result.signature, bitcoinKey.address)).toBe(true)
  })

  test('behavior: polkadot_signMessage signs the <Bytes>-wrapped message with sr25519', async () => {
    const [{ address }] = wallet.otherAccounts().filter((a) => a.namespace === 'polkadot') as [TestWallet.Account]
    const message = stringToHex('Sign in to Doorway')
    const { signature } = await request<{ signature: Hex }>('polkadot_signMessage', { address, message }, polkadotChain)
    expect(signatureVerify(u8aWrapBytes(message), signature, address)).toMatchObject({ isValid: true, crypto: 'sr25519' })
  })

  test('behavior: polkadot_signTransaction signs the payload as an sr25519 MultiSignature', async () => {
    const [{ address }] = wallet.otherAccounts().filter((a) => a.namespace === 'polkadot') as [TestWallet.Account]
    const genesisHash = '0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3'
    // A balances transfer's call bytes and an immortal era; numbers as SignerPayloadJSON writes them.
    const payload = { address, method: '0x0503008eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a480b00a0724e1809', era: '0x00', nonce: '0x00000003', tip: '0x00000000000000000000000000000000', specVersion: '0x000f4240', transactionVersion: '0x0000001a', genesisHash, blockHash: genesisHash, version: 4 }
    const { signature } = await request<{ signature: Hex }>('polkadot_signTransaction', { address, transactionPayload: payload }, polkadotChain)
    const signed = u8aConcat(hexToU8a(payload.method), hexToU8a(payload.era), compactToU8a(3), compactToU8a(0), bnToU8a(1_000_000, { bitLength: 32 }), bnToU8a(26, { bitLength: 32 }), hexToU8a(genesisHash), hexToU8a(genesisHash))
    expect(signature.slice(0, 4)).toBe('0x01')
    expect(signatureVerify(signed, signature, address)).toMatchObject({ isValid: true, crypto: 'sr25519' })
  })

  test('error: polkadot_signMessage for another address is refused with 4100', async () => {
    const bob = new Keyring({ type: 'sr25519', ss58Format: 0 }).addFromUri('//Bob').address
    await expect(request('polkadot_signMessage', { address: bob, message: '0x00' }, polkadotChain)).rejects.toMatchObject({ code: 4100 })
  })

  test('error: a method the session does not list never reaches the wallet', async () => {
    const answered = wallet.requests().length
    // The dapp's client refuses a wallet method outside the session before sending anything…
    const topic = provider.session!.topic
    await expect(
      provider.client.request({ topic, chainId: solana.chainId, request: { method: 'solana_signAllTransactions', params: { transactions: [] } } }),
    ).rejects.toThrow(/solana_signAllTransactions/)
    // …and the provider sends any other method to the namespace's RPC node, which knows no such method.
    await expect(request('polkadot_signRaw', { address: '', data: '0x00' }, polkadotChain)).rejects.toThrow(/Method not found/)
    expect(noNode.seen).toContain('polkadot_signRaw')
    expect(wallet.requests()).toHaveLength(answered)
  })

  test('behavior: eip155 still works in the same session', async () => {
    const signature = await provider.request<Hex>({ method: 'personal_sign', params: [toHex('still EVM'), wallet.address()] }, `eip155:${chains[0]!.id}`)
    expect(await verifyMessage({ address: wallet.address(), message: 'still EVM', signature })).toBe(true)
    expect(wallet.requests().map((r) => r.chainId.split(':')[0])).toEqual(expect.arrayContaining(['eip155', 'solana', 'bip122', 'polkadot']))
  })
})

describe('what the wallet offers', () => {
  test('behavior: a proposal that asks for eip155 and solana only gets those two', async () => {
    const provider = await dapp('dapp-solana-only')
    const session = await connect(provider, { ...TestDapp.namespaces(chains, ['personal_sign']), solana: asked().solana })
    expect(Object.keys(session?.namespaces ?? {}).sort()).toEqual(['eip155', 'solana'])
  })

  test('behavior: a solana chain other than the wallet\'s is not offered', async () => {
    const provider = await dapp('dapp-solana-mainnet')
    const mainnet = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
    const session = await connect(provider, { ...TestDapp.namespaces(chains, ['personal_sign']), solana: { chains: [mainnet], methods: methods.solana, events: [], rpcMap: { [mainnet]: noNode.url } } })
    expect(Object.keys(session?.namespaces ?? {})).toEqual(['eip155'])
  })
})

describe('network', () => {
  test('behavior: every connection the clients opened was loopback', () => {
    expect(connections).toContain(`127.0.0.1:${devnet.relay.port}`)
    expect(connections.filter((c) => !isLoopback(c))).toEqual([])
  })
})
