/**
 * The test wallet's answers to solana, bip122 and polkadot requests, without a relay: Requests.respond
 * over a context whose sdk is a stand-in that holds one session and keeps the responses. What needs a
 * chain (sending) is in devnet/src/walletconnect.namespaces.test.ts.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { Keyring } from '@polkadot/keyring'
import { u8aWrapBytes } from '@polkadot/util'
import { blake2AsU8a, signatureVerify } from '@polkadot/util-crypto'
import { base58, base64 } from '@scure/base'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import type { WalletKitTypes } from '@reown/walletkit'
import { mnemonicToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import * as Calls from '@doorway/examples/dev-wallet/Calls'
import * as BitcoinKeys from '../bitcoin/keys.js'
import * as SolanaKeys from '../solana/keys.js'
import * as Context from './context.js'
import * as Polkadot from './polkadot.js'
import * as Requests from './requests.js'

const chainIds = { solana: 'solana:4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZ', bip122: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', polkadot: 'polkadot:e143f23803ac50e8f6f8e62695d1ce9e' } as const
const topic = 'a'.repeat(64)

let context: Context.Context
let responses: { id: number; result?: unknown; error?: { code: number; message: string } }[]

beforeAll(async () => {
  responses = []
  const others = await Context.others({
    // Nothing here sends: the URLs are never called.
    solana: { rpcUrl: 'http://127.0.0.1:9', chainId: chainIds.solana },
    bitcoin: { esploraUrl: 'http://127.0.0.1:9', chainId: chainIds.bip122 },
    polkadot: { chainId: chainIds.polkadot },
  })
  const namespaces = { ...Context.namespaces({ chains: [{ id: 31337, rpcUrl: '' }], account: { address: '0x' }, others, methods: Context.methods } as unknown as Context.Context, Context.otherNamespaces) }
  // The session lists every method but solana_signAndSendTransaction and eth_signTypedData_v4, so those are not the dapp's to ask.
  namespaces.solana!.methods = namespaces.solana!.methods.filter((m) => m !== 'solana_signAndSendTransaction')
  namespaces.eip155!.methods = namespaces.eip155!.methods.filter((m) => m !== 'eth_signTypedData_v4')
  const kit = {
    getActiveSessions: () => ({ [topic]: { topic, namespaces } }),
    respondSessionRequest: ({ response }: { response: (typeof responses)[number] }) => Promise.resolve(void responses.push(response)),
  }
  // Its eip155 chain has no node behind it: the requests below are refused before anything is sent.
  const chain = { id: 31337, rpcUrl: 'http://127.0.0.1:9' }
  const account = mnemonicToAccount('test test test test test test test test test test test junk')
  context = { kit, others, handled: [], log: undefined, chains: [chain], current: chain, account, methods: Context.methods, batches: Calls.create() } as unknown as Context.Context
})

let nextId = 1
/** Answers one request as the wallet would, and resolves with what it sent back. */
async function ask(chainId: string, method: string, params: unknown) {
  const id = nextId++
  const event = { id, topic, params: { chainId, request: { method, params } } } as unknown as WalletKitTypes.SessionRequest
  await Requests.respond(context, event)
  const response = responses.find((r) => r.id === id)!
  expect(context.handled.at(-1)).toMatchObject({ method, chainId })
  return response
}

describe('respond', () => {
  test('error: a method the session does not list is refused with 4100, though the wallet knows it', async () => {
    const transaction = base64.encode(new Uint8Array(10))
    expect((await ask(chainIds.solana, 'solana_signAndSendTransaction', { transaction })).error?.code).toBe(4100)
  })

  test.each([
    ['another solana chain', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana_getAccounts'],
    ['another polkadot chain', 'polkadot:91b171bb158e2d3848fa23a9f1c25182', 'polkadot_signMessage'],
    ['a namespace the wallet lacks', 'cosmos:cosmoshub-4', 'cosmos_signDirect'],
  ])('error: %s is refused with 4902', async (_, chainId, method) => {
    expect((await ask(chainId, method, {})).error?.code).toBe(4902)
  })
})

describe('eip155', () => {
  const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
  const batch = (fields: Record<string, unknown>) => [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, calls: [{ to: address, value: '0x1' }], ...fields }]

  test('error: a method the wallet has but the session lacks is 4100; one it never had, like wallet_showCallsStatus, is 4200', async () => {
    expect((await ask('eip155:31337', 'eth_signTypedData_v4', [address, '{}'])).error?.code).toBe(4100)
    expect((await ask('eip155:31337', 'wallet_showCallsStatus', ['0x01'])).error?.code).toBe(4200)
  })

  test('behavior: wallet_getCapabilities answers its chains, none atomic; another address is 4100', async () => {
    expect((await ask('eip155:31337', 'wallet_getCapabilities', [address])).result).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } } })
    expect((await ask('eip155:31337', 'wallet_getCapabilities', ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'])).error?.code).toBe(4100)
  })

  test.each([
    ['another chain than the current one', 5710, { chainId: '0x7a6a' }],
    ['another sender', 4100, { from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }],
    ['atomicRequired', 5760, { atomicRequired: true }],
    ['a capability it lacks, not optional', 5700, { capabilities: { auxiliaryFunds: { supported: true } } }],
    ['version 1.0', -32602, { version: '1.0' }],
  ])('error: wallet_sendCalls with %s is refused with %i, its code kept', async (_, code, fields) => {
    expect((await ask('eip155:31337', 'wallet_sendCalls', batch(fields))).error?.code).toBe(code)
  })

  test('error: wallet_getCallsStatus of an id it never sent is 5730', async () => {
    expect((await ask('eip155:31337', 'wallet_getCallsStatus', ['0x01'])).error).toEqual({ code: 5730, message: 'Unknown bundle id' })
  })
})

describe('solana', () => {
  const key = () => SolanaKeys.keypair(0)

  test('behavior: solana_signTransaction signs as the fee payer and answers its signature', async () => {
    const from = key().publicKey
    const tx = new Transaction({ feePayer: from, recentBlockhash: new PublicKey(7).toBase58() }).add(
      SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports: 1 }),
    )
    const transaction = base64.encode(tx.serialize({ requireAllSignatures: false, verifySignatures: false }))
    const { result } = (await ask(chainIds.solana, 'solana_signTransaction', { transaction })) as { result: { signature: string; transaction: string } }
    const signed = Transaction.from(base64.decode(result.transaction))
    expect(signed.verifySignatures()).toBe(true)
    expect(base58.encode(signed.signature!)).toBe(result.signature)
    expect(ed25519.verify(base58.decode(result.signature), tx.serializeMessage(), from.toBytes())).toBe(true)
  })

  test.each([
    ['no params', undefined],
    ['a transaction that is not base64', { transaction: 'not base64!' }],
    ['bytes that are not a transaction', { transaction: base64.encode(new Uint8Array(3)) }],
    ['a transaction over the packet size', { transaction: base64.encode(new Uint8Array(1300)) }],
  ])('param: solana_signTransaction with %s is refused with -32602', async (_, params) => {
    expect((await ask(chainIds.solana, 'solana_signTransaction', params)).error?.code).toBe(-32602)
  })

  test.each([
    ['a message that is not base58', { message: '0OIl', pubkey: SolanaKeys.address(0) }, -32602],
    ['no pubkey', { message: '2' }, -32602],
    ['another pubkey', { message: '2', pubkey: SolanaKeys.address(1) }, 4100],
  ])('param: solana_signMessage with %s is refused', async (_, params, code) => {
    expect((await ask(chainIds.solana, 'solana_signMessage', params)).error?.code).toBe(code)
  })
})

describe('bip122', () => {
  const key = BitcoinKeys.payment(0)

  test('behavior: getAccountAddresses lists no ordinal address, and the payment one when asked', async () => {
    expect((await ask(chainIds.bip122, 'getAccountAddresses', { account: key.address, intentions: ['ordinal'] })).result).toEqual([])
    const { result } = await ask(chainIds.bip122, 'getAccountAddresses', { account: key.address, intentions: ['payment'] })
    expect(result).toEqual([expect.objectContaining({ address: key.address, intention: 'payment', path: "m/84'/1'/0'/0/0" })])
  })

  test.each([
    ['another account', 'getAccountAddresses', { account: BitcoinKeys.payment(1).address }, 4100],
    ['no account', 'signMessage', { message: 'hi' }, -32602],
    ['unknown intentions', 'getAccountAddresses', { account: key.address, intentions: ['savings'] }, -32602],
    ['the BIP-322 protocol', 'signMessage', { account: key.address, message: 'hi', protocol: 'bip322' }, -32602],
    ['another address to sign with', 'signMessage', { account: key.address, message: 'hi', address: BitcoinKeys.payment(1).address }, 4100],
    ['no signInputs', 'signPsbt', { account: key.address, psbt: 'cHNidP8=' }, -32602],
    ['an input of another address', 'signPsbt', { account: key.address, psbt: 'cHNidP8=', signInputs: [{ address: BitcoinKeys.payment(1).address, index: 0 }] }, 4100],
    ['a PSBT that is not one', 'signPsbt', { account: key.address, psbt: 'cHNidP8=', signInputs: [{ address: key.address, index: 0 }] }, -32602],
    ['a changeAddress that is not regtest', 'sendTransfer', { account: key.address, recipientAddress: key.address, amount: '1000', changeAddress: 'tb1qxyz' }, -32602],
    ['params as a list', 'signMessage', [key.address, 'hi'], -32602],
  ])('param: %s is refused', async (_, method, params, code) => {
    expect((await ask(chainIds.bip122, method, params)).error?.code).toBe(code)
  })
})

describe('polkadot', () => {
  // Westend and local chains write addresses with the generic Substrate prefix (42).
  const alice = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice').address

  test('behavior: the account is Alice with the generic prefix on a chain other than Polkadot or Kusama', () => {
    expect(alice).toBe('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')
    expect(context.others.polkadot?.address).toBe(alice)
  })

  test('behavior: polkadot_signMessage of text signs its UTF-8 bytes, wrapped', async () => {
    const { result } = (await ask(chainIds.polkadot, 'polkadot_signMessage', { address: alice, message: 'plain text' })) as { result: { signature: string } }
    expect(signatureVerify(u8aWrapBytes('plain text'), result.signature, alice).isValid).toBe(true)
  })

  test('behavior: a payload over 256 bytes is signed as its blake2-256 hash, as extrinsic payloads are', () => {
    const big = { method: `0x${'11'.repeat(300)}`, era: '0x00', nonce: 0, tip: 0, specVersion: 1, transactionVersion: 1, genesisHash: `0x${'22'.repeat(32)}`, blockHash: `0x${'33'.repeat(32)}` }
    const small = { ...big, method: '0x0000' }
    expect(Polkadot.signingPayload(small)).toHaveLength(2 + 1 + 1 + 1 + 4 + 4 + 32 + 32)
    const unhashed = new Uint8Array([...new Uint8Array(300).fill(0x11), 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, ...new Uint8Array(32).fill(0x22), ...new Uint8Array(32).fill(0x33)])
    expect(Polkadot.signingPayload(big)).toEqual(blake2AsU8a(unhashed, 256))
  })

  test.each([
    ['an address that is not SS58', { address: 'alice', message: 'x' }, -32602],
    ["Bob's address", { address: new Keyring({ type: 'sr25519' }).addFromUri('//Bob').address, message: 'x' }, 4100],
    ['no message', { address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' }, -32602],
  ])('param: polkadot_signMessage with %s is refused', async (_, params, code) => {
    expect((await ask(chainIds.polkadot, 'polkadot_signMessage', params)).error?.code).toBe(code)
  })

  test.each([
    ['no transactionPayload', {}],
    ['a short genesisHash', { transactionPayload: { method: '0x00', era: '0x00', nonce: '0x00', tip: '0x00', specVersion: '0x01', transactionVersion: '0x01', genesisHash: '0x1234', blockHash: '0x1234' } }],
    ['a nonce that is not a number', { transactionPayload: { method: '0x00', era: '0x00', nonce: 'three' } }],
  ])('param: polkadot_signTransaction with %s is refused with -32602', async (_, params) => {
    expect((await ask(chainIds.polkadot, 'polkadot_signTransaction', { address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', ...params })).error?.code).toBe(-32602)
  })
})
