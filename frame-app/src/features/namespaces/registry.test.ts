import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { core, errors } from '@doorway/shared/Texts'
import { base58 } from '@scure/base'
import { hexToString } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Balance } from '../../api/client.js'
import type { Account } from '../../core/connection.js'
import type { Connector } from '../../core/connectors/Connector.js'
import * as SolanaErrors from '../solana/SolanaErrors.js'
import * as Namespaces from './registry.js'

const evmAddress = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const solanaAddress = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const bitcoinAddress = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'
const polkadotAddress = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'
const bitcoinChain = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' as const
const polkadotChain = 'polkadot:91b171bb158e2d3848fa23a9f1c25182' as const
const solanaChain = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** An account whose wallet answers `answers[method]`, recording what it was asked. */
function account(chainId: Caip.ChainId, address: string, answers: Record<string, (params: unknown) => unknown> = {}, extra: Partial<Connector> = {}) {
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }, _chainId?: Caip.ChainId) => {
    const answer = answers[method]
    if (!answer) throw Errors.unsupportedMethod()
    return answer(params)
  })
  const connector: Connector = { id: 'test', name: 'Test', type: 'WALLET_CONNECT', namespaces: [Caip.parseChainId(chainId).namespace], request, ...extra }
  return { account: { connector, address, chainId } satisfies Account, request }
}

describe('registry', () => {
  test('behavior: every namespace of spec §3 has an entry', () => {
    expect(Object.keys(Namespaces.registry).sort()).toEqual([...Caip.namespaces].sort())
  })

  test('behavior: the Account features, balances and names of each namespace', () => {
    const table = Object.fromEntries(Object.entries(Namespaces.registry).map(([namespace, e]) => [namespace, { features: e.features.join(' '), balances: e.balances, names: e.names }]))
    expect(table).toMatchInlineSnapshot(`
      {
        "bip122": {
          "balances": true,
          "features": "receive send",
          "names": false,
        },
        "eip155": {
          "balances": true,
          "features": "onramp swaps receive send",
          "names": true,
        },
        "polkadot": {
          "balances": false,
          "features": "receive",
          "names": false,
        },
        "solana": {
          "balances": true,
          "features": "receive send",
          "names": false,
        },
      }
    `)
  })

  test.each(Caip.namespaces)('behavior: %s sends exactly when it has a transfer runtime, or is eip155 (the EVM path of send.ts)', async (namespace) => {
    const entry = Namespaces.registry[namespace]
    const { transfer } = await entry.load()
    expect(Namespaces.sends(entry)).toBe(namespace === 'eip155' || transfer !== undefined)
  })

  test('behavior: of() finds the entry of a CAIP-2 network', () => {
    expect(Namespaces.of(bitcoinChain)).toBe(Namespaces.registry.bip122)
    expect(Namespaces.of('eip155:1')).toBe(Namespaces.registry.eip155)
  })

  test("error: of() refuses what is no CAIP-2 network with 'Invalid CAIP-2 network id'", () => {
    expect(() => Namespaces.of('cosmos:hub')).toThrow('Invalid CAIP-2 network id')
  })
})

describe('receiver (spec §5 Address formats)', () => {
  test.each<[Caip.Namespace, string, string]>([
    ['eip155', 'lowercase, checksummed', evmAddress.toLowerCase()],
    ['solana', 'base58, as typed', solanaAddress],
    ['bip122', 'bech32 regtest, as typed', bitcoinAddress],
    ['bip122', 'base58 P2PKH', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
  ])('behavior: %s takes an address (%s)', (namespace, _, text) => {
    const expected = namespace === 'eip155' ? evmAddress : text
    expect(Namespaces.registry[namespace].receiver(text)).toEqual({ kind: 'address', address: expected })
  })

  test.each<[Caip.Namespace, string, string, Namespaces.ReceiverError]>([
    ['solana', 'an EVM address', evmAddress, 'receiverInvalidSolana'],
    ['solana', 'a name (names point at EVM addresses)', 'alice.doorway.id', 'receiverInvalidSolana'],
    ['solana', 'a base58 string too short (31)', solanaAddress.slice(0, 31), 'receiverInvalidSolana'],
    ['solana', 'a 0 (not base58)', `0${solanaAddress.slice(1)}`, 'receiverInvalidSolana'],
    ['bip122', 'an EVM address', evmAddress, 'receiverInvalidBitcoin'],
    ['bip122', 'a Solana address', solanaAddress, 'receiverInvalidBitcoin'],
    ['bip122', 'a bech32 address with a b (not bech32)', 'bc1qb508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'receiverInvalidBitcoin'],
    ['eip155', '39 hex digits', `0x${'1'.repeat(39)}`, 'receiverInvalid'],
    ['eip155', 'a wrong checksum', '0x70997970c51812dc3A010C7d01b50e0d17dc79C8', 'receiverChecksum'],
  ])('error: %s refuses %s with %s', (namespace, _, text, error) => {
    expect(Namespaces.registry[namespace].receiver(text)).toEqual({ kind: 'invalid', error })
  })

  test('behavior: names are EVM receivers only', () => {
    expect(Namespaces.registry.eip155.receiver('alice.doorway.id')).toEqual({ kind: 'name', name: 'alice.doorway.id' })
  })
})

describe('load', () => {
  test('behavior: eip155 signs in with personal_sign of the message and has no transfer (send.ts sends EVM)', async () => {
    const { account: evm, request } = account('eip155:31337', evmAddress, { personal_sign: () => `0x${'1b'.repeat(65)}` })
    const runtime = await Namespaces.registry.eip155.load()
    expect(runtime.transfer).toBeUndefined()
    expect(await runtime.signIn(evm, 'Sign in')).toBe(`0x${'1b'.repeat(65)}`)
    const [params] = request.mock.calls.map(([r]) => r.params as [`0x${string}`, string])
    expect([hexToString(params![0]), params![1]]).toEqual(['Sign in', evmAddress])
  })

  test.each<[Caip.Namespace, string | undefined]>([
    ['solana', errors.sendTransactionFailed],
    ['bip122', core.somethingWentWrong],
    ['polkadot', undefined],
  ])('behavior: the %s runtime is its own chunk with signIn, and estimate and send when it sends', async (namespace, failed) => {
    const runtime = await Namespaces.registry[namespace].load()
    expect(runtime.signIn).toBeTypeOf('function')
    expect(runtime.transfer?.failed).toBe(failed)
    if (failed) expect([typeof runtime.transfer?.estimate, typeof runtime.transfer?.send]).toEqual(['function', 'function'])
  })

  test('behavior: Solana signs in over the message UTF-8 bytes and answers the signature in base58', async () => {
    const signature = Uint8Array.from({ length: 64 }, (_, i) => i + 1)
    const signMessage = vi.fn(async () => signature)
    const { account: solana } = account(solanaChain, solanaAddress, {}, { solana: { signMessage, signTransaction: async (b) => b } })
    const { signIn } = await Namespaces.registry.solana.load()
    expect(await signIn(solana, 'Sign in ✓')).toBe(base58.encode(signature))
    expect(signMessage).toHaveBeenCalledWith(new TextEncoder().encode('Sign in ✓'), solana)
  })

  test('error: a Solana account whose wallet has no Solana signer cannot sign in (4200)', async () => {
    const { account: solana, request } = account(solanaChain, solanaAddress, { personal_sign: () => '0x00' })
    const { signIn } = await Namespaces.registry.solana.load()
    await expect(signIn(solana, 'Sign in')).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod })
    expect(request).not.toHaveBeenCalled()
  })

  test('behavior: Polkadot signs in with polkadot_signMessage on its chain and answers the hex signature', async () => {
    const signature = `0x${'ab'.repeat(64)}`
    const { account: polkadot, request } = account(polkadotChain, polkadotAddress, { polkadot_signMessage: () => ({ id: 1, signature }) })
    const { signIn } = await Namespaces.registry.polkadot.load()
    expect(await signIn(polkadot, 'Sign in')).toBe(signature)
    expect(request).toHaveBeenCalledWith({ method: 'polkadot_signMessage', params: { address: polkadotAddress, message: 'Sign in' } }, polkadotChain)
  })

  test('behavior: Bitcoin signs in with bip122 signMessage on its chain and answers the base64 signature', async () => {
    const signature = `H${'A'.repeat(86)}=`
    const { account: bitcoin, request } = account(bitcoinChain, bitcoinAddress, { signMessage: () => ({ address: bitcoinAddress, signature }) })
    const { signIn } = await Namespaces.registry.bip122.load()
    expect(await signIn(bitcoin, 'Sign in')).toBe(signature)
    expect(request).toHaveBeenCalledWith({ method: 'signMessage', params: { account: bitcoinAddress, message: 'Sign in' } }, bitcoinChain)
  })

  test.each<[Caip.Namespace, Caip.ChainId, string, string, unknown]>([
    ['polkadot', polkadotChain, polkadotAddress, 'polkadot_signMessage', { signature: '0x1234' }],
    ['polkadot', polkadotChain, polkadotAddress, 'polkadot_signMessage', null],
    ['bip122', bitcoinChain, bitcoinAddress, 'signMessage', { signature: 'H'.repeat(40) }],
    ['bip122', bitcoinChain, bitcoinAddress, 'signMessage', { signature: `${'H'.repeat(87)}!` }],
    ['bip122', bitcoinChain, bitcoinAddress, 'signMessage', {}],
  ])('error: %s refuses an answer without a signature in its format (%#)', async (namespace, chainId, address, method, answer) => {
    const { account: a } = account(chainId, address, { [method]: () => answer })
    const { signIn } = await Namespaces.registry[namespace].load()
    await expect(signIn(a, 'Sign in')).rejects.toThrow('The wallet answered without a signature')
  })
})

describe('solana transfer', () => {
  test('behavior: a failure after which nothing went out keeps the form: the node unreachable or refusing, the blockhash expired, wrapped or not', async () => {
    const { transfer } = await Namespaces.registry.solana.load()
    const unreachable = new SolanaErrors.RpcUnavailableError({ reason: 'network', method: 'getLatestBlockhash' })
    const refused = new SolanaErrors.RpcError({ code: -32002, message: 'Transaction simulation failed' })
    for (const error of [unreachable, refused, new SolanaErrors.ExpiredError(), new SolanaErrors.SendFailedError(unreachable), new SolanaErrors.SendFailedError(refused)])
      expect(transfer!.kept!(error)).toBe(true)
    // An answer about other bytes, a wallet's refusal, anything unknown: the send may have gone out, or was refused by the person.
    for (const error of [new SolanaErrors.SendFailedError(new Error('The node answered signature x for y')), Errors.userRejected(), new Error('boom'), undefined])
      expect(transfer!.kept!(error)).toBe(false)
  })
})

describe('bitcoin transfer', () => {
  const esplora = 'http://esplora.test/api/'
  const btc: Balance = { name: 'Bitcoin', symbol: 'BTC', chainId: bitcoinChain, price: 60_000, value: 600, quantity: { decimals: '8', numeric: '0.01' }, iconUrl: 'http://api.test/i' }
  const txid = 'ab'.repeat(32)
  const request = (a: Account) => ({ account: a, rpcUrl: esplora, token: btc, units: 25_000n, receiver: 'bcrt1qreceiver0000000000' })

  test("behavior: the fee is the network's 3-block rate for a 141 vB payment, in sats", async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ '1': 20, '3': 2.5, '6': 1 }))
    const { transfer } = await Namespaces.registry.bip122.load()
    expect(await transfer!.estimate(request(account(bitcoinChain, bitcoinAddress).account))).toEqual({ gas: 353n, gasPrice: 1n })
    expect(String(fetch.mock.calls[0]![0])).toBe('http://esplora.test/api/fee-estimates')
  })

  test("error: without the network's Esplora url the fee is refused as a disconnected chain", async () => {
    const { transfer } = await Namespaces.registry.bip122.load()
    await expect(transfer!.estimate({ ...request(account(bitcoinChain, bitcoinAddress).account), rpcUrl: undefined })).rejects.toThrow(Errors.chainDisconnected().message)
  })

  test('behavior: the wallet pays with sendTransfer on its chain; the payment is followed until Esplora says it is mined', async () => {
    vi.useFakeTimers()
    let mined = false
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ confirmed: mined }))
    const { account: bitcoin, request: wallet } = account(bitcoinChain, bitcoinAddress, { sendTransfer: () => ({ txid }) })
    const { transfer } = await Namespaces.registry.bip122.load()
    const sent = await transfer!.send(request(bitcoin))
    expect(sent.hash).toBe(txid)
    expect(wallet).toHaveBeenCalledWith({ method: 'sendTransfer', params: { account: bitcoinAddress, recipientAddress: 'bcrt1qreceiver0000000000', amount: '25000' } }, bitcoinChain)
    const settled = vi.fn()
    void sent.settled().then(settled)
    await vi.advanceTimersByTimeAsync(Constants.receiptWaitMs)
    expect(settled).not.toHaveBeenCalled()
    mined = true
    await vi.advanceTimersByTimeAsync(Constants.pendingTransactionPollMs)
    expect(settled).toHaveBeenCalledWith('confirmed')
    expect(String(fetch.mock.calls.at(-1)![0])).toBe(`http://esplora.test/api/tx/${txid}/status`)
  })

  test('error: an answer without a transaction id is refused', async () => {
    const { account: bitcoin } = account(bitcoinChain, bitcoinAddress, { sendTransfer: () => ({ txid: 'nope' }) })
    const { transfer } = await Namespaces.registry.bip122.load()
    await expect(transfer!.send(request(bitcoin))).rejects.toThrow('The wallet answered without a transaction id')
  })
})
