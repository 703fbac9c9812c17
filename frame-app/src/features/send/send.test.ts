import type * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { core, errors } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { decodeFunctionData, type Hex, parseAbi } from 'viem'
import { afterEach, beforeEach, describe, expect, type MockInstance, test, vi } from 'vitest'
import type { Balance, Profile } from '../../api/client.js'
import type { Connector } from '../../core/connectors/Connector.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { configAtom } from '../../core/config.js'
import { accountAtom, activeNamespaceAtom } from '../../core/connection.js'
import { type Host, hostAtom } from '../../core/host.js'
import { historyAtom } from '../../core/router.js'
import type { Route } from '../../core/routes.js'
import {
  chooseTokenAtom,
  draftAtom,
  estimateAtom,
  estimateFeeAtom,
  insufficientGasAtom,
  maxAmountAtom,
  resetSendAtom,
  resolveNameAtom,
  sendAtom,
  sendAgainAtom,
  sendErrorAtom,
  sendTokenAtom,
  setAmountAtom,
  setReceiverAtom,
  trackTransactionAtom,
  transactionsAtom,
} from './send.js'
import { toastAtom } from '../../core/toasts.js'
import * as Namespaces from '../namespaces/registry.js'
import { tokensAtom } from '../balances/tokens.js'
import { eth, icon, points, usdc, usdcContract } from '../balances/balances.testing.js'

const sender = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const receiver = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const hash: Hex = `0x${'ab'.repeat(32)}`


const anvil = (caipNetworkId: Caip.ChainId, name: string) => ({ caipNetworkId, name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true })
const config = {
  projectId: 'p',
  sdkType: 'appkit',
  sdkVersion: 'test',
  networks: [anvil('eip155:31337', 'Anvil'), anvil('eip155:31338', 'Anvil 2')],
  features: { analytics: false },
} as unknown as Protocol.Config

// The whole flow on screen, the wallet asking (SendConfirm) on top.
const flow: Route[] = [{ view: 'Account' }, { view: 'Send' }, { view: 'SendAmount' }, { view: 'SendReceiver' }, { view: 'SendPreview' }, { view: 'SendConfirm' }]

// The fee every estimate below works with: 21000 gas at the api's standard 2 gwei.
const gas = 21_000n
const standard = 2_000_000_000n

// ABI-encoded answers of a simulated transfer
const abiTrue: Hex = `0x${'0'.repeat(63)}1`
const abiFalse: Hex = `0x${'0'.repeat(64)}`
const transferAbi = parseAbi(['function transfer(address to, uint256 value) returns (bool)'])

/** The wallet's answers by method: a function of the params, which may throw or return a promise. */
type Answers = Record<string, (params: unknown) => unknown>
const walletAnswers: Answers = {
  eth_estimateGas: () => `0x${gas.toString(16)}`,
  eth_call: () => abiTrue,
  eth_sendTransaction: () => hash,
  eth_getTransactionReceipt: () => null,
}

/** The api's answers by endpoint (spec §7), as `globalThis.fetch` gives them to the api client. */
type Reply = { status: number; body?: unknown }
let replies: { gasPrice: Reply; profile: Reply; balance: Reply }
let fetchMock: MockInstance<typeof fetch>

function replyTo(url: URL): Reply {
  if (url.pathname === '/v1/convert/gas-price') return replies.gasPrice
  if (url.pathname.startsWith('/v1/profile/account/')) return replies.profile
  if (/^\/v1\/account\/[^/]+\/balance$/.test(url.pathname)) return replies.balance
  return { status: 404, body: { message: `no route ${url.pathname}` } }
}
/** The urls the api client fetched under `path`. */
const fetched = (path: string) => fetchMock.mock.calls.map(([input]) => new URL(String(input))).filter((url) => url.pathname.startsWith(path))

beforeEach(() => {
  vi.useFakeTimers()
  replies = {
    gasPrice: { status: 200, body: { standard: String(standard), fast: String(standard * 2n), instant: String(standard * 3n) } },
    profile: { status: 404, body: { message: 'Name nobody.doorway.id is not registered' } },
    balance: { status: 200, body: { balances: [eth, usdc] } },
  }
  // Before any store: the api client takes the global fetch when it is built.
  fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const { status, body } = replyTo(new URL(String(input)))
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
})
afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/**
 * A store connected with a fake wallet on `chainId`, holding `balances`, with the Send flow open.
 * `events` is what the frame told the host; `calls(method)` the params of each wallet request of it.
 */
function setup(options: { chainId?: Caip.ChainId; address?: string; accountType?: Connector['accountType']; gasless?: boolean; balances?: Balance[]; wallet?: Answers } = {}) {
  const store = createStore()
  const answers: Answers = { ...walletAnswers, ...options.wallet }
  const request = vi.fn(async ({ method, params }: Protocol.RpcRequest, _chainId?: Caip.ChainId) => {
    const answer = answers[method]
    if (!answer) throw Errors.unsupportedMethod()
    return answer(params)
  })
  const connector: Connector = { id: 'test.wallet', name: 'Test Wallet', type: 'ANNOUNCED', namespaces: ['eip155'], request, accountType: options.accountType, ...(options.gasless !== undefined && { gasless: options.gasless }) }
  const events: Protocol.FrameEvent[] = []
  const call = async (method: string, params: unknown) => void (method === 'event' && events.push(params as Protocol.FrameEvent))
  store.set(configAtom, config)
  store.set(hostAtom, { host: { call } as unknown as Host, warn: () => {} })
  store.set(accountAtom, { connector, address: options.address ?? sender, chainId: options.chainId ?? 'eip155:31337' })
  store.set(tokensAtom, { status: 'ready', balances: options.balances ?? [eth, usdc], lastFailure: null })
  store.set(historyAtom, flow)
  const calls = (method: string) => request.mock.calls.filter(([r]) => r.method === method).map(([r]) => r.params)
  return { store, request, connector, events, calls }
}

type Store = ReturnType<typeof createStore>
/** The person's steps: a token, an amount, a receiver. */
function fill(store: Store, token: Balance, amount = '1', to = receiver) {
  store.set(chooseTokenAtom, token)
  store.set(setAmountAtom, amount)
  store.set(setReceiverAtom, { address: to })
}

const emptyForm = {
  token: undefined,
  sendTokenAmount: undefined,
  receiverAddress: undefined,
  receiverProfileName: undefined,
  receiverProfileImageUrl: undefined,
  gasPrice: undefined,
  gasPriceInUSD: undefined,
  networkBalanceInUSD: undefined,
  loading: false,
}

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

describe('sendAtom', () => {
  test('behavior: has exactly the spec §3 Send state keys', () => {
    const { store } = setup()
    expect(Object.keys(store.get(sendAtom))).toMatchInlineSnapshot(`
      [
        "token",
        "sendTokenAmount",
        "receiverAddress",
        "receiverProfileName",
        "receiverProfileImageUrl",
        "gasPrice",
        "gasPriceInUSD",
        "networkBalanceInUSD",
        "loading",
        "tokenBalances",
        "lastRetry",
      ]
    `)
  })

  test('behavior: starts empty and not loading', () => {
    const { store } = setup()
    expect(store.get(sendAtom)).toEqual({ ...emptyForm, tokenBalances: [eth, usdc], lastRetry: undefined })
  })

  test('behavior: tokenBalances are the account balances, 0-decimal tokens filtered out and the native token first (spec §9)', () => {
    const { store } = setup({ balances: [usdc, points, eth] })
    expect(store.get(sendAtom).tokenBalances).toEqual([eth, usdc])
  })

  test.each([
    ['no failure', null, undefined],
    ['the last balance failure', 1_700_000_000_000, 1_700_000_000_000],
  ])('param: lastRetry is %s of tokensAtom', (_, lastFailure, lastRetry) => {
    const { store } = setup()
    store.set(tokensAtom, { status: 'error', balances: [], lastFailure })
    expect(store.get(sendAtom)).toMatchObject({ tokenBalances: [], lastRetry })
  })
})

describe('chooseTokenAtom', () => {
  test('behavior: another token starts its amount and fee again and keeps the receiver', async () => {
    const { store } = setup()
    fill(store, eth, '1')
    store.set(draftAtom, { amount: '1', receiver })
    await store.set(estimateFeeAtom)
    store.set(chooseTokenAtom, usdc)
    expect(store.get(sendAtom)).toMatchObject({ ...emptyForm, token: usdc, receiverAddress: receiver })
    expect(store.get(draftAtom)).toEqual({ amount: '', receiver })
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
  })

  test('behavior: the same token again keeps the form', () => {
    const { store } = setup()
    fill(store, usdc, '5')
    store.set(chooseTokenAtom, { ...usdc })
    expect(store.get(sendAtom)).toMatchObject({ token: usdc, sendTokenAmount: '5', receiverAddress: receiver })
  })
})

describe('setAmountAtom', () => {
  test('behavior: sets the amount and asks for a new estimate', async () => {
    const { store } = setup()
    fill(store, eth, '1')
    await store.set(estimateFeeAtom)
    store.set(setAmountAtom, '0.5')
    expect(store.get(sendAtom).sendTokenAmount).toBe('0.5')
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
  })
})

describe('setReceiverAtom', () => {
  test('behavior: sets the receiver with its name and avatar and asks for a new estimate', async () => {
    const { store } = setup()
    fill(store, eth, '1')
    await store.set(estimateFeeAtom)
    store.set(setReceiverAtom, { address: receiver, name: 'bob.doorway.id', imageUrl: 'https://img.test/bob.png' })
    expect(store.get(sendAtom)).toMatchObject({ receiverAddress: receiver, receiverProfileName: 'bob.doorway.id', receiverProfileImageUrl: 'https://img.test/bob.png' })
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
  })
})

describe('resetSendAtom', () => {
  test('behavior: empties the form, the draft and the estimate; the balances stay', async () => {
    const { store } = setup()
    fill(store, eth, '1')
    store.set(draftAtom, { amount: '1', receiver })
    await store.set(estimateFeeAtom)
    store.set(resetSendAtom)
    expect(store.get(sendAtom)).toEqual({ ...emptyForm, tokenBalances: [eth, usdc], lastRetry: undefined })
    expect(store.get(draftAtom)).toEqual({ amount: '', receiver: '' })
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
  })
})

describe('sendTokenAtom', () => {
  const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const
  test.each([
    ['a network the dapp does not configure (eip155:1)', 'eip155:1' as const],
    ['a configured network of another namespace (only the EVM path exists)', solana],
  ])("error: 'Unsupported chain' on %s, without asking the wallet (spec §4, §8)", async (_, chainId) => {
    const { store, request } = setup({ chainId })
    store.set(configAtom, { ...config, networks: [...config.networks, { ...anvil(solana, 'Solana'), nativeCurrency: { name: 'Sol', symbol: 'SOL', decimals: 9 } }] })
    fill(store, usdc, '1')
    await expect(store.set(sendTokenAtom)).rejects.toThrow(errors.unsupportedChain)
    expect(request).not.toHaveBeenCalled()
    expect(store.get(sendAtom).loading).toBe(false)
  })

  test("error: 'Unsupported chain' when no account is connected", async () => {
    const { store } = setup()
    fill(store, usdc, '1')
    store.set(accountAtom, null)
    await expect(store.set(sendTokenAtom)).rejects.toThrow(errors.unsupportedChain)
  })

  test.each([
    ['no token', (s: Store) => (s.set(setAmountAtom, '1'), s.set(setReceiverAtom, { address: receiver }))],
    ['no amount', (s: Store) => (s.set(chooseTokenAtom, usdc), s.set(setReceiverAtom, { address: receiver }))],
    ['an empty amount', (s: Store) => fill(s, usdc, '')],
    ['no receiver', (s: Store) => (s.set(chooseTokenAtom, usdc), s.set(setAmountAtom, '1'))],
    ['an empty receiver', (s: Store) => fill(s, usdc, '1', '')],
    ['a native send without gas price (no estimate yet)', (s: Store) => fill(s, eth, '1')],
  ])("error: 'Please enter a valid amount and receiver address' with %s, without asking the wallet (spec §5)", async (_, arrange) => {
    const { store, request } = setup()
    arrange(store)
    await expect(store.set(sendTokenAtom)).rejects.toThrow(errors.invalidSendInput)
    expect(request).not.toHaveBeenCalled()
    expect(store.get(sendAtom).loading).toBe(false)
    expect(store.get(historyAtom)).toEqual(flow)
  })

  test.each(['abc', '-1', '1e18', '1,5'])('error: a malformed amount %j never reaches the wallet', async (amount) => {
    const { store, request } = setup()
    fill(store, usdc, amount)
    await expect(store.set(sendTokenAtom)).rejects.toThrow()
    expect(request).not.toHaveBeenCalled()
    expect(store.get(sendAtom).loading).toBe(false)
  })

  test('behavior: a second send while the wallet is asking is busy; the wallet is asked once (double click)', async () => {
    const answer = deferred<unknown>()
    const { store, calls } = setup({ wallet: { eth_sendTransaction: () => answer.promise } })
    fill(store, usdc, '1')
    const first = store.set(sendTokenAtom)
    expect(store.get(sendAtom).loading).toBe(true)
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'busy' })
    answer.resolve(hash)
    await expect(first).resolves.toEqual({ status: 'sent', hash })
    expect(calls('eth_sendTransaction')).toHaveLength(1)
  })

  test('behavior: a native send asks the wallet to pay the receiver the amount in wei', async () => {
    const { store, calls } = setup()
    fill(store, eth, '1.5')
    await store.set(estimateFeeAtom)
    await store.set(sendTokenAtom)
    expect(calls('eth_sendTransaction')).toEqual([[{ from: sender, to: receiver, value: '0x14d1120d7b160000' }]])
  })

  test.each([
    ['without an estimate', async () => {}],
    ['with a tether-style estimate', async (s: Store) => void (await s.set(estimateFeeAtom))],
  ])('behavior: an ERC-20 send (%s) calls transfer(receiver, amount) on the token contract, with no value', async (_, estimate) => {
    const { store, calls } = setup({ wallet: { eth_call: () => '0x' } })
    fill(store, usdc, '25.5')
    await estimate(store)
    await store.set(sendTokenAtom)
    const [[tx]] = calls('eth_sendTransaction') as [[{ from: string; to: string; value: Hex; data: Hex }]]
    expect(tx).toMatchObject({ from: sender, to: usdcContract, value: '0x0' })
    expect(decodeFunctionData({ abi: transferAbi, data: tx.data })).toEqual({ functionName: 'transfer', args: [receiver, 25_500_000n] })
  })

  test("behavior: success shows 'Transaction started', settles open() with the hash, resets the form and shows the result (spec §4, §8)", async () => {
    const { store, events, calls } = setup()
    fill(store, eth, '1')
    store.set(draftAtom, { amount: '1', receiver })
    await store.set(estimateFeeAtom)
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'sent', hash })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'success', message: 'Transaction started' })
    expect(events).toContainEqual({ type: 'result', result: { status: 'sent', hash, chainId: 'eip155:31337' } })
    expect(store.get(sendAtom)).toEqual({ ...emptyForm, tokenBalances: [eth, usdc], lastRetry: undefined })
    expect(store.get(draftAtom)).toEqual({ amount: '', receiver: '' })
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'SendResult', hash, chainId: 'eip155:31337' }])
    // and its receipt is followed
    expect(store.get(transactionsAtom)).toEqual({ [hash]: 'pending' })
    expect(calls('eth_getTransactionReceipt')).toEqual([[hash]])
  })

  test.each([
    ['a ProviderRpcError', () => Errors.userRejected()],
    ['a plain EIP-1193 error object', () => ({ code: 4001, message: 'MetaMask Tx Signature: User denied transaction signature.' })],
  ])('behavior: a rejection in the wallet (4001, %s) is calm news, resets the form and returns to the token list', async (_, rejection) => {
    const { store, events } = setup({
      wallet: {
        eth_sendTransaction: () => {
          throw rejection()
        },
      },
    })
    fill(store, usdc, '1')
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'rejected' })
    const { toast } = store.get(toastAtom)
    expect(toast).toMatchObject({ variant: 'info', message: sendText.rejected })
    expect(toast?.message).not.toBe(core.somethingWentWrong)
    expect(store.get(sendAtom)).toMatchObject(emptyForm)
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'Send' }])
    expect(events.some((e) => e.type === 'result')).toBe(false)
    expect(store.get(sendErrorAtom)).toBeUndefined()
  })

  test("error: another wallet error shows 'Something went wrong' with the wallet's reason and resets (spec §8)", async () => {
    const reason = 'insufficient funds for gas * price + value'
    const { store, events } = setup({
      wallet: {
        eth_sendTransaction: () => {
          throw Object.assign(new Error(reason), { code: -32000 })
        },
      },
    })
    fill(store, usdc, '1')
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'failed' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: 'Something went wrong', detail: reason })
    expect(store.get(sendAtom)).toMatchObject(emptyForm)
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'Send' }])
    expect(events.some((e) => e.type === 'result')).toBe(false)
  })

  test.each([
    ['nothing', undefined],
    ['a short hex', '0x1234'],
    ['a number', 1],
  ])("error: a wallet answering %s instead of a transaction hash is 'Something went wrong' and resets", async (_, answer) => {
    const { store, events } = setup({ wallet: { eth_sendTransaction: () => answer } })
    fill(store, usdc, '1')
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'failed' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: core.somethingWentWrong, detail: 'The wallet answered without a transaction hash' })
    expect(store.get(sendAtom)).toMatchObject(emptyForm)
    expect(events).toEqual([])
  })

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'wallet locked'],
  ])("error: a wallet rejecting with %s is 'Something went wrong', resets and returns to the token list", async (_, rejection) => {
    const { store } = setup({ wallet: { eth_sendTransaction: () => Promise.reject(rejection) } })
    fill(store, usdc, '1')
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'failed' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: core.somethingWentWrong })
    expect(store.get(sendAtom)).toMatchObject(emptyForm)
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'Send' }])
  })

  test('behavior: a wallet that does not answer in time keeps the form for another try (timedOut)', async () => {
    const { store, events } = setup({
      wallet: {
        eth_sendTransaction: () => {
          throw Errors.timedOut()
        },
      },
    })
    fill(store, usdc, '1')
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'timedOut' })
    expect(store.get(sendAtom)).toMatchObject({ token: usdc, sendTokenAmount: '1', receiverAddress: receiver, loading: false })
    expect(store.get(sendErrorAtom)).toBe(sendText.timedOut)
    expect(store.get(toastAtom).toast).toBeNull()
    expect(store.get(historyAtom)).toEqual(flow)
    expect(events).toEqual([])
  })

  test('behavior: trying again after a timeout clears its message', async () => {
    const answers = [() => Promise.reject(Errors.timedOut()), () => Promise.resolve(hash)]
    const { store } = setup({ wallet: { eth_sendTransaction: () => answers.shift()!() } })
    fill(store, usdc, '1')
    await store.set(sendTokenAtom)
    expect(store.get(sendErrorAtom)).toBe(sendText.timedOut)
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'sent', hash })
    expect(store.get(sendErrorAtom)).toBeUndefined()
  })
})

/**
 * Another namespace's network, the active one, with an account on it: its path is its runtime's
 * (features/namespaces/registry.ts), loaded as the chunk of that namespace.
 */
function onNetwork(chainId: Caip.ChainId, options: { address: string; balances: Balance[]; wallet?: Answers; native: Protocol.Network['nativeCurrency'] }) {
  const s = setup({ chainId, address: options.address, balances: options.balances, wallet: options.wallet })
  const network = { caipNetworkId: chainId, name: 'Other', nativeCurrency: options.native, rpcUrl: 'http://node.test/api', testnet: true }
  s.store.set(configAtom, { ...config, networks: [...config.networks, network] })
  s.store.set(activeNamespaceAtom, chainId.split(':')[0] as Caip.Namespace)
  return s
}

describe('sendTokenAtom, other namespaces', () => {
  const bitcoin = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' as const
  const bitcoinSender = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'
  const bitcoinReceiver = 'bcrt1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
  const btc: Balance = { name: 'Bitcoin', symbol: 'BTC', chainId: bitcoin, price: 60_000, value: 600, quantity: { decimals: '8', numeric: '0.01' }, iconUrl: icon }
  const txid = 'cd'.repeat(32)
  const onBitcoin = (wallet: Answers = { sendTransfer: () => ({ txid }) }) =>
    onNetwork(bitcoin, { address: bitcoinSender, balances: [btc], wallet, native: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 } })

  test("behavior: a Bitcoin send is its runtime's: the fee in sats, then sendTransfer on its chain, with the EVM path's steps (spec §4, §8)", async () => {
    const { store, request, events } = onBitcoin()
    fill(store, btc, '0.00025', bitcoinReceiver)
    // The node's fee rates are not found: 1 sat/vB for the 141 vB payment.
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom)).toEqual({ status: 'ready', gas: 141n, abi: 'erc20' })
    expect(store.get(sendAtom)).toMatchObject({ gasPrice: 1n, gasPriceInUSD: (141 / 1e8) * 60_000, networkBalanceInUSD: 600 })
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'sent', hash: txid })
    expect(request.mock.calls.map(([r, chainId]) => [r.method, r.params, chainId])).toEqual([
      ['sendTransfer', { account: bitcoinSender, recipientAddress: bitcoinReceiver, amount: '25000' }, bitcoin],
    ])
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'success', message: 'Transaction started' })
    expect(events).toContainEqual({ type: 'result', result: { status: 'sent', hash: txid, chainId: bitcoin } })
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'SendResult', hash: txid, chainId: bitcoin }])
    expect(store.get(transactionsAtom)).toEqual({ [txid]: 'pending' })
  })

  test("error: a refused Bitcoin payment is 'Something went wrong' with the wallet's reason, and resets", async () => {
    const { store } = onBitcoin({ sendTransfer: () => Promise.reject(new Error('Insufficient funds')) })
    fill(store, btc, '0.00025', bitcoinReceiver)
    await store.set(estimateFeeAtom)
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'failed' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: core.somethingWentWrong, detail: 'Insufficient funds' })
    expect(store.get(sendAtom)).toMatchObject(emptyForm)
  })

  test("error: a failed Solana send is 'Failed to send transaction. Please try again.' with the reason (spec §8)", async () => {
    const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const
    const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
    const spl: Balance = { name: 'USD Coin', symbol: 'USDC', chainId: solana, address: `${solana}:${mint}`, price: 1, value: 10, quantity: { decimals: '6', numeric: '10' }, iconUrl: icon }
    // The test wallet has no Solana signer: the Solana chunk refuses before building anything.
    const { store, request } = onNetwork(solana, { address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', balances: [spl], native: { name: 'Solana', symbol: 'SOL', decimals: 9 } })
    fill(store, spl, '1', 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH')
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'failed' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: errors.sendTransactionFailed, detail: Errors.unsupportedMethod().message })
    expect(request).not.toHaveBeenCalled()
  })

  test('error: a failure after which nothing went out (kept) shows the §8 toast and keeps the form and the preview for Send again (issue 23)', async () => {
    const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const
    const sol: Balance = { name: 'Solana', symbol: 'SOL', chainId: solana, price: 150, value: 150, quantity: { decimals: '9', numeric: '1' }, iconUrl: icon }
    const down = new Error('The Solana node could not be reached')
    const send = vi.fn().mockRejectedValueOnce(down).mockResolvedValueOnce({ hash: 'sig', settled: () => new Promise(() => {}) })
    const transfer = { estimate: vi.fn().mockResolvedValue({ gas: 5000n, gasPrice: 1n }), send, failed: errors.sendTransactionFailed, kept: (error: unknown) => error === down }
    vi.spyOn(Namespaces.registry.solana, 'load').mockResolvedValue({ signIn: vi.fn(), transfer })
    const { store } = onNetwork(solana, { address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', balances: [sol], native: { name: 'Solana', symbol: 'SOL', decimals: 9 } })
    fill(store, sol, '0.5', 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH')
    await store.set(estimateFeeAtom)
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'kept' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: errors.sendTransactionFailed, detail: down.message })
    expect(store.get(sendErrorAtom)).toBe(down.message)
    expect(store.get(sendAtom)).toMatchObject({ sendTokenAmount: '0.5', receiverAddress: 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH', loading: false })
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'sent', hash: 'sig' })
    expect(send).toHaveBeenCalledTimes(2)
  })

  test('behavior: a transfer that expires unlanded is Expired, with the same send ready to try again (issue 23)', async () => {
    const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const
    const sol: Balance = { name: 'Solana', symbol: 'SOL', chainId: solana, price: 150, value: 150, quantity: { decimals: '9', numeric: '1' }, iconUrl: icon }
    const transfer = { estimate: vi.fn().mockResolvedValue({ gas: 5000n, gasPrice: 1n }), send: vi.fn().mockResolvedValue({ hash: 'sig', settled: async () => 'expired' as const }), failed: errors.sendTransactionFailed }
    vi.spyOn(Namespaces.registry.solana, 'load').mockResolvedValue({ signIn: vi.fn(), transfer })
    const { store } = onNetwork(solana, { address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', balances: [sol], native: { name: 'Solana', symbol: 'SOL', decimals: 9 } })
    fill(store, sol, '0.5', 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH')
    await store.set(estimateFeeAtom)
    await expect(store.set(sendTokenAtom)).resolves.toEqual({ status: 'sent', hash: 'sig' })
    await vi.waitFor(() => expect(store.get(transactionsAtom).sig).toBe('expired'))
    expect(store.get(sendAgainAtom).sig).toEqual({ asset: 'native', amount: '0.5', to: 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH' })
  })

  test("error: a Polkadot network, which has no send, is 'Unsupported chain' without asking the wallet (spec §4)", async () => {
    const polkadot = 'polkadot:91b171bb158e2d3848fa23a9f1c25182' as const
    const dot: Balance = { name: 'Polkadot', symbol: 'DOT', chainId: polkadot, price: 5, value: 50, quantity: { decimals: '10', numeric: '10' }, iconUrl: icon }
    const { store, request } = onNetwork(polkadot, { address: '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5', balances: [dot], native: { name: 'Polkadot', symbol: 'DOT', decimals: 10 } })
    fill(store, dot, '1', '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3')
    await expect(store.set(sendTokenAtom)).rejects.toThrow(errors.unsupportedChain)
    expect(request).not.toHaveBeenCalled()
  })
})

describe('estimateFeeAtom', () => {
  test("behavior: a native send's fee from the api's standard gas price and the wallet's eth_estimateGas, in ETH and US dollars", async () => {
    const { store, calls } = setup()
    fill(store, eth, '1')
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom)).toEqual({ status: 'ready', gas, abi: 'erc20' })
    expect(calls('eth_estimateGas')).toEqual([[{ from: sender, to: receiver, value: '0xde0b6b3a7640000' }]])
    expect(calls('eth_call')).toEqual([])
    const { gasPrice, gasPriceInUSD, networkBalanceInUSD } = store.get(sendAtom)
    expect(gasPrice).toBe(standard)
    // 21000 × 2 gwei = 0.000042 ETH, at 3000 USD per ETH
    expect(gasPriceInUSD).toBeCloseTo(0.126, 10)
    expect(networkBalanceInUSD).toBe(eth.value)
    expect(fetched('/v1/convert/gas-price').map((url) => url.searchParams.get('chainId'))).toEqual(['eip155:31337'])
  })

  test('behavior: loading while the estimate travels', async () => {
    const { store } = setup()
    fill(store, eth, '1')
    const done = store.set(estimateFeeAtom)
    expect(store.get(estimateAtom)).toEqual({ status: 'loading' })
    await done
    expect(store.get(estimateAtom).status).toBe('ready')
  })

  test.each([
    ['no token', (s: Store) => (s.set(setAmountAtom, '1'), s.set(setReceiverAtom, { address: receiver }))],
    ['no amount', (s: Store) => (s.set(chooseTokenAtom, eth), s.set(setReceiverAtom, { address: receiver }))],
    ['no receiver', (s: Store) => (s.set(chooseTokenAtom, eth), s.set(setAmountAtom, '1'))],
  ])('behavior: an incomplete form (%s) is not estimated', async (_, arrange) => {
    const { store, request } = setup()
    arrange(store)
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
    expect(request).not.toHaveBeenCalled()
    expect(fetched('/v1/convert/gas-price')).toEqual([])
  })

  test.each([
    ['empty data: a tether-style token (spec §9)', '0x' as Hex, 'tether'],
    ['a 32-byte true: an EIP-20 token', abiTrue, 'erc20'],
  ])('param: an ERC-20 transfer simulated with eth_call answering %s', async (_, answer, abi) => {
    const { store, calls } = setup({ wallet: { eth_call: () => answer } })
    fill(store, usdc, '25')
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom)).toEqual({ status: 'ready', gas, abi })
    const [[call, block]] = calls('eth_call') as [[{ from: string; to: string; data: Hex }, string]]
    expect(block).toBe('latest')
    expect(call).toMatchObject({ from: sender, to: usdcContract })
    expect(decodeFunctionData({ abi: transferAbi, data: call.data }).args).toEqual([receiver, 25_000_000n])
    expect(calls('eth_estimateGas')).toEqual([[expect.objectContaining({ from: sender, to: usdcContract, value: '0x0', data: call.data })]])
    // The fee is paid in ETH, whatever the token sent
    expect(store.get(sendAtom)).toMatchObject({ gasPrice: standard, networkBalanceInUSD: eth.value })
    expect(store.get(sendAtom).gasPriceInUSD).toBeCloseTo(0.126, 10)
  })

  test.each([
    ['answers a 32-byte false', () => abiFalse, 'The token refused the transfer'],
    ['reverts', () => Promise.reject(Object.assign(new Error('execution reverted: ERC20: transfer amount exceeds balance'), { code: 3 })), 'transfer amount exceeds balance'],
  ])('error: an ERC-20 whose simulated transfer %s is an estimate error, before eth_estimateGas', async (_, answer, reason) => {
    const { store, calls } = setup({ wallet: { eth_call: answer } })
    fill(store, usdc, '25')
    await store.set(estimateFeeAtom)
    const estimate = store.get(estimateAtom)
    expect(estimate.status).toBe('error')
    expect(estimate.status === 'error' && estimate.message).toContain(reason)
    expect(calls('eth_estimateGas')).toEqual([])
    expect(store.get(sendAtom).gasPrice).toBeUndefined()
  })

  test("error: the api's 400 'Network not supported for Gas Price' is the estimate's message (spec §8)", async () => {
    replies.gasPrice = { status: 400, body: { message: 'Network not supported for Gas Price' } }
    const { store } = setup()
    fill(store, eth, '1')
    await store.set(estimateFeeAtom)
    const estimate = store.get(estimateAtom)
    expect(estimate.status).toBe('error')
    expect(estimate.status === 'error' && estimate.message).toContain('Network not supported for Gas Price')
    expect(store.get(sendAtom).gasPrice).toBeUndefined()
  })

  test.each([
    ['nothing', null],
    ['a decimal string', '21000'],
    ['an error', Errors.fromCode(-32000, 'gas required exceeds allowance')],
  ])('error: a wallet answering eth_estimateGas with %s is an estimate error', async (_, answer) => {
    const { store } = setup({ wallet: { eth_estimateGas: () => (answer instanceof Error ? Promise.reject(answer) : answer) } })
    fill(store, eth, '1')
    await store.set(estimateFeeAtom)
    const estimate = store.get(estimateAtom)
    expect(estimate.status).toBe('error')
    expect(estimate.status === 'error' && estimate.message).toContain(answer instanceof Error ? answer.message : 'The wallet gave no gas estimate')
  })

  test('behavior: an estimate for a receiver the person has since changed is dropped', async () => {
    const price = deferred<void>()
    const { store } = setup({ wallet: { eth_estimateGas: async () => (await price.promise, '0x5208') } })
    fill(store, eth, '1')
    const done = store.set(estimateFeeAtom)
    store.set(setReceiverAtom, { address: sender })
    price.resolve()
    await done
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
    expect(store.get(sendAtom).gasPrice).toBeUndefined()
  })

  test('behavior: an estimate for an amount the person has since changed is dropped', async () => {
    // The simulation said yes to 25 USDC; 150 may be refused, so it must be simulated again.
    const simulated = deferred<Hex>()
    const { store } = setup({ wallet: { eth_call: () => simulated.promise } })
    fill(store, usdc, '25')
    const done = store.set(estimateFeeAtom)
    store.set(setAmountAtom, '150')
    simulated.resolve(abiTrue)
    await done
    expect(store.get(estimateAtom)).toEqual({ status: 'idle' })
  })
})

describe('insufficientGasAtom', () => {
  const withEth = (numeric: string): Balance => ({ ...eth, quantity: { ...eth.quantity, numeric } })
  const feeInEth = '0.000042'

  test.each([
    ['a zero native balance, sending USDC', withEth('0'), usdc, '1', 'insufficientGas'],
    ['a fee above the native balance, sending USDC', withEth('0.00004'), usdc, '1', 'insufficientGas'],
    ['a native balance that pays the fee exactly, sending USDC', withEth(feeInEth), usdc, '1', undefined],
    ['a native amount plus fee above the balance', withEth('1'), eth, '1', 'insufficientTotal'],
    ['a native amount plus fee equal to the balance', withEth('1.000042'), eth, '1', undefined],
    ['plenty of ETH', withEth('2'), eth, '1', undefined],
  ] as const)('param: %s → %s (spec §5)', async (_, native, token, amount, flag) => {
    const { store } = setup({ balances: [native, usdc] })
    fill(store, token.symbol === 'ETH' ? native : token, amount)
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom).status).toBe('ready')
    expect(store.get(insufficientGasAtom)).toBe(flag)
  })

  test.each([
    ['a zero native balance', withEth('0'), usdc, '1'],
    ['a fee above the native balance', withEth('0.00004'), usdc, '1'],
    ['a native amount plus fee above the balance', withEth('1'), eth, '1'],
  ] as const)('behavior: a smart account a paymaster pays for is never flagged, even with %s (spec §5, §6)', async (_, native, token, amount) => {
    const { store } = setup({ balances: [native, usdc], accountType: 'smartAccount', gasless: true })
    fill(store, token.symbol === 'ETH' ? native : token, amount)
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom).status).toBe('ready')
    expect(store.get(insufficientGasAtom)).toBeUndefined()
  })

  test('behavior: a sponsored smart account still cannot send more ETH than it holds (the paymaster pays the fee only)', async () => {
    const { store } = setup({ balances: [withEth('0.5'), usdc], accountType: 'smartAccount', gasless: true })
    fill(store, withEth('0.5'), '1')
    await store.set(estimateFeeAtom)
    expect(store.get(insufficientGasAtom)).toBe('insufficientTotal')
  })

  test.each([
    ['a zero native balance', withEth('0'), usdc, '1', 'insufficientGas'],
    ['a native amount plus fee above the balance', withEth('1'), eth, '1', 'insufficientTotal'],
  ] as const)('behavior: a smart account with no paymaster pays its own fee, so it is checked as an EOA is: %s → %s (README)', async (_, native, token, amount, flag) => {
    const { store } = setup({ balances: [native, usdc], accountType: 'smartAccount', gasless: false })
    fill(store, token.symbol === 'ETH' ? native : token, amount)
    await store.set(estimateFeeAtom)
    expect(store.get(insufficientGasAtom)).toBe(flag)
  })

  test('behavior: nothing is flagged before the estimate is ready, nor when it failed', async () => {
    replies.gasPrice = { status: 400, body: { message: 'Network not supported for Gas Price' } }
    const { store } = setup({ balances: [withEth('0'), usdc] })
    fill(store, usdc, '1')
    expect(store.get(insufficientGasAtom)).toBeUndefined()
    await store.set(estimateFeeAtom)
    expect(store.get(estimateAtom).status).toBe('error')
    expect(store.get(insufficientGasAtom)).toBeUndefined()
  })
})

describe('maxAmountAtom', () => {
  test('behavior: an ERC-20 sends its whole balance, without asking the wallet or the api', async () => {
    const { store, request } = setup()
    store.set(chooseTokenAtom, usdc)
    await expect(store.set(maxAmountAtom)).resolves.toBe('150.5')
    expect(request).not.toHaveBeenCalled()
    expect(fetched('/v1/convert/gas-price')).toEqual([])
  })

  test('behavior: the native token keeps back twice the estimated fee', async () => {
    const { store, calls } = setup()
    store.set(chooseTokenAtom, eth)
    store.set(setReceiverAtom, { address: receiver })
    // 2 ETH − 2 × 21000 × 2 gwei
    await expect(store.set(maxAmountAtom)).resolves.toBe('1.999916')
    expect(calls('eth_estimateGas')).toEqual([[{ from: sender, to: receiver, value: '0x0' }]])
  })

  test('behavior: before a receiver is chosen, the fee is estimated for a transfer to the sender', async () => {
    const { store, calls } = setup()
    store.set(chooseTokenAtom, eth)
    await expect(store.set(maxAmountAtom)).resolves.toBe('1.999916')
    expect(calls('eth_estimateGas')).toEqual([[{ from: sender, to: sender, value: '0x0' }]])
  })

  test('behavior: a native balance below the reserve gives 0, never a negative amount', async () => {
    const poor = { ...eth, quantity: { ...eth.quantity, numeric: '0.00005' } }
    const { store } = setup({ balances: [poor] })
    store.set(chooseTokenAtom, poor)
    await expect(store.set(maxAmountAtom)).resolves.toBe('0')
  })

  test('behavior: no token chosen gives nothing', async () => {
    const { store } = setup()
    await expect(store.set(maxAmountAtom)).resolves.toBeUndefined()
  })

  test("error: the api's gas price failure rejects with its reason", async () => {
    replies.gasPrice = { status: 400, body: { message: 'Network not supported for Gas Price' } }
    const { store } = setup()
    store.set(chooseTokenAtom, eth)
    await expect(store.set(maxAmountAtom)).rejects.toThrow('Network not supported for Gas Price')
  })
})

describe('trackTransactionAtom', () => {
  const receipt = (status: Hex) => () => ({ transactionHash: hash, status })

  test('behavior: no receipt yet is pending, asked every 1 s for 25 s, then every 30 s (spec §9)', async () => {
    const { store, calls } = setup()
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    const asked = () => calls('eth_getTransactionReceipt').length
    expect(store.get(transactionsAtom)).toEqual({ [hash]: 'pending' })
    expect(asked()).toBe(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(asked()).toBe(2)
    await vi.advanceTimersByTimeAsync(Constants.receiptWaitMs - 1_000)
    // at 0, 1, …, 25 s
    expect(asked()).toBe(26)
    await vi.advanceTimersByTimeAsync(Constants.pendingTransactionPollMs - 1)
    expect(asked()).toBe(26)
    await vi.advanceTimersByTimeAsync(1)
    expect(asked()).toBe(27)
    await vi.advanceTimersByTimeAsync(Constants.pendingTransactionPollMs)
    expect(asked()).toBe(28)
    expect(new Set(calls('eth_getTransactionReceipt').map((params) => JSON.stringify(params)))).toEqual(new Set([JSON.stringify([hash])]))
    expect(store.get(transactionsAtom)).toEqual({ [hash]: 'pending' })
  })

  test('behavior: a successful receipt confirms it and reloads the balances with forceUpdate', async () => {
    replies.balance = { status: 200, body: { balances: [{ ...eth, quantity: { ...eth.quantity, numeric: '1' } }] } }
    const answers = [() => null, () => null, receipt('0x1')]
    const { store, calls } = setup({ wallet: { eth_getTransactionReceipt: () => answers.shift()!() } })
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    expect(fetched('/v1/account/')).toEqual([])
    await vi.advanceTimersByTimeAsync(2_000)
    expect(store.get(transactionsAtom)).toEqual({ [hash]: 'confirmed' })
    expect(store.get(balanceRefreshAtom)).toBe(1)
    const [url, ...more] = fetched(`/v1/account/${sender}/balance`)
    expect(more).toEqual([])
    expect(url?.searchParams.get('forceUpdate')).toBe('true')
    expect(url?.searchParams.get('chainId')).toBe('eip155:31337')
    expect(store.get(tokensAtom).balances[0]?.quantity.numeric).toBe('1')
    // and is no longer asked about
    await vi.advanceTimersByTimeAsync(Constants.pendingTransactionPollMs * 2)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(3)
  })

  test('behavior: a reverted receipt (0x0) marks it failed and reloads the balances too', async () => {
    const { store, calls } = setup({ wallet: { eth_getTransactionReceipt: receipt('0x0') } })
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    expect(store.get(transactionsAtom)).toEqual({ [hash]: 'failed' })
    expect(store.get(balanceRefreshAtom)).toBe(1)
    expect(fetched(`/v1/account/${sender}/balance`)[0]?.searchParams.get('forceUpdate')).toBe('true')
    await vi.advanceTimersByTimeAsync(Constants.pendingTransactionPollMs)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(1)
  })

  test.each([
    ['a wallet error', () => Promise.reject(Errors.fromCode(-32603, 'upstream unavailable'))],
    ['a receipt without status', () => ({ transactionHash: hash })],
    ['an unknown status', () => ({ transactionHash: hash, status: '0x2' })],
  ])('behavior: %s leaves it pending and asks again', async (_, answer) => {
    const { store, calls } = setup({ wallet: { eth_getTransactionReceipt: answer } })
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    await vi.advanceTimersByTimeAsync(3_000)
    expect(store.get(transactionsAtom)).toEqual({ [hash]: 'pending' })
    expect(calls('eth_getTransactionReceipt')).toHaveLength(4)
    expect(store.get(balanceRefreshAtom)).toBe(0)
  })

  test('behavior: another account stops the polling', async () => {
    const { store, calls, connector } = setup()
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(3)
    store.set(accountAtom, { connector, address: receiver, chainId: 'eip155:31337' })
    await vi.advanceTimersByTimeAsync(Constants.receiptWaitMs + Constants.pendingTransactionPollMs * 3)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(3)
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: a disconnect stops the polling', async () => {
    const { store, calls } = setup()
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    store.set(accountAtom, null)
    await vi.advanceTimersByTimeAsync(Constants.pendingTransactionPollMs * 2)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  test('behavior: on another chain the wallet is not asked about it, and is again once back', async () => {
    const { store, calls, connector } = setup()
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    store.set(accountAtom, { connector, address: sender, chainId: 'eip155:31338' })
    await vi.advanceTimersByTimeAsync(3_000)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(1)
    store.set(accountAtom, { connector, address: sender, chainId: 'eip155:31337' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(calls('eth_getTransactionReceipt')).toHaveLength(2)
  })

  test('behavior: nothing is followed without an account', async () => {
    const { store, request } = setup()
    store.set(accountAtom, null)
    await store.set(trackTransactionAtom, hash, 'eip155:31337')
    expect(store.get(transactionsAtom)).toEqual({})
    expect(request).not.toHaveBeenCalled()
  })
})

describe('resolveNameAtom', () => {
  const alice = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
  const other = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
  // ENSIP-11: 0x80000000 | chainId
  const profile = (addresses: Profile['addresses'], attributes: Profile['attributes'] = {}): Profile => ({ name: 'alice.doorway.id', addresses, attributes })

  test('behavior: the address for the ENSIP-11 coin type of the connected chain, checksummed, with name and avatar', async () => {
    replies.profile = {
      status: 200,
      body: profile({ '60': { address: other }, [String(0x80000000 + 31337)]: { address: alice } }, { avatar: 'https://img.test/alice.png' }),
    }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).resolves.toEqual({
      address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      name: 'alice.doorway.id',
      imageUrl: 'https://img.test/alice.png',
    })
    const [url] = fetched('/v1/profile/account/')
    expect(url?.pathname).toBe('/v1/profile/account/alice.doorway.id')
    expect(url?.searchParams.get('apiVersion')).toBe('2')
  })

  test.each([
    ['eip155:31337', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'],
    ['eip155:31338', '0x90F79bf6EB2c4f870365E785982E1f101E93b906'],
  ] as const)('param: on %s the coin type of that chain is read', async (chainId, address) => {
    replies.profile = { status: 200, body: profile({ [String(0x80000000 + 31337)]: { address: alice }, [String(0x80000000 + 31338)]: { address: other } }) }
    const { store } = setup({ chainId })
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).resolves.toMatchObject({ address })
  })

  test('behavior: without an address for the chain, the SLIP-44 ether address (60) is used', async () => {
    replies.profile = { status: 200, body: profile({ '60': { address: other } }) }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).resolves.toMatchObject({ address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' })
  })

  test.each([
    ['http', 'http://img.test/alice.png'],
    ['javascript', 'javascript:alert(1)'],
  ])('behavior: an %s avatar is not shown', async (_, avatar) => {
    replies.profile = { status: 200, body: profile({ '60': { address: alice } }, { avatar }) }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).resolves.toMatchObject({ imageUrl: undefined })
  })

  test.each([
    ['no address at all', profile({})],
    ['only another chain', profile({ [String(0x80000000 + 10)]: { address: alice } })],
    ['an address that is not an EVM address', profile({ '60': { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } })],
  ])("error: a name with %s for this chain throws 'Error resolving name'", async (_, body) => {
    replies.profile = { status: 200, body }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).rejects.toThrow(errors.resolveNameFailed)
  })

  test("error: a 404 throws the api's reason, not the fallback (spec §8)", async () => {
    replies.profile = { status: 404, body: { message: 'Name x is not registered' } }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'x')).rejects.toThrow('Name x is not registered')
  })

  test.each([
    ['a 500 with a reason', { status: 500, body: { message: 'database is down' } }],
    ['a 503 without a body', { status: 503 }],
  ])("error: %s throws 'Error resolving name' (spec §8)", async (_, reply) => {
    replies.profile = reply
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).rejects.toThrow(new Error(errors.resolveNameFailed))
  })

  test("error: a 404 without a reason throws 'Error resolving name', never an empty message (spec §8)", async () => {
    replies.profile = { status: 404 }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).rejects.toThrow(new Error(errors.resolveNameFailed))
  })

  test("error: an answer that is not a profile throws 'Error resolving name', not the client's own words (spec §8)", async () => {
    replies.profile = { status: 200, body: { name: 'alice.doorway.id' } }
    const { store } = setup()
    await expect(store.set(resolveNameAtom, 'alice.doorway.id')).rejects.toThrow(new Error(errors.resolveNameFailed))
  })

  test('error: an aborted lookup rejects with the abort, not a resolve error', async () => {
    replies.profile = { status: 200, body: profile({ '60': { address: alice } }) }
    fetchMock.mockImplementation((_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))))
    const { store } = setup()
    const controller = new AbortController()
    const done = store.set(resolveNameAtom, 'alice.doorway.id', controller.signal)
    controller.abort(new DOMException('The person typed on', 'AbortError'))
    await expect(done).rejects.toThrow('The person typed on')
  })
})
