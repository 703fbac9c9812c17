import * as Errors from '@doorway/shared/Errors'
import { errors } from '@doorway/shared/Texts'
import { siwxText } from '@doorway/shared/texts/siwx'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { mnemonicToAccount } from 'viem/accounts'
import { hexToString, verifyMessage } from 'viem'
import { afterAll, describe, expect, test, vi } from 'vitest'
import * as SiwxHost from '@doorway/sdk/internal/siwx'
import type { SiweConfig, Siwx, SiwxInput, SiwxSession } from '@doorway/sdk'
import type { Connector } from '../../core/connectors/Connector.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { accountAtom, accountEventAtom, disconnectAtom, establishAtom } from '../../core/connection.js'
import { hostAtom } from '../../core/host.js'
import { closeModalAtom, openAtom, openModalAtom, shakeAtom } from '../../core/modal.js'
import { routeAtom } from '../../core/router.js'
import { closeLockedAtom, connectedHomeAtom, sessionAtom, signInAtom, wireSignIn } from './siwx.js'
import * as Flow from './siwxFlow.js'
import { toastAtom } from '../../core/toasts.js'

// Storage picks its backend when imported and Node has no localStorage (as in core/connection.test.ts).
await vi.hoisted(async () => {
  const { cookieJar } = await import('../../core/cookieJar.testing.js')
  vi.stubGlobal('document', cookieJar())
})
afterAll(() => vi.unstubAllGlobals())

const wallet = mnemonicToAccount('test test test test test test test test test test test junk')
const other = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 1 })
const chainId = 'eip155:31337' as const
const network = { caipNetworkId: chainId, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true }

/** A dapp's siwx keeping sessions in memory and verifying EOA signatures, as DefaultSIWX would. */
function dappSiwx(overrides: Partial<Siwx> = {}) {
  const sessions: SiwxSession[] = []
  const siwx: Siwx = {
    async createMessage(input: SiwxInput) {
      const data = { ...input, domain: 'dapp.example', uri: 'https://dapp.example', version: '1', nonce: crypto.randomUUID() }
      return { ...data, toString: () => `dapp.example wants you to sign in as ${input.accountAddress} on ${input.chainId}, nonce ${data.nonce}` }
    },
    async addSession(session) {
      const valid = await verifyMessage({ address: session.data.accountAddress as `0x${string}`, message: session.message, signature: session.signature as `0x${string}` })
      if (!valid) throw new Error('bad signature')
      sessions.push(session)
    },
    async getSessions(chain, address) {
      return sessions.filter((s) => s.data.chainId === chain && s.data.accountAddress.toLowerCase() === address.toLowerCase())
    },
    async revokeSession() {},
    async setSessions(next) {
      sessions.splice(0, sessions.length, ...next)
    },
    getRequired: () => true,
    ...overrides,
  }
  return { siwx, sessions }
}

/** A wallet that signs with the test account, or declines (4001) when `decline` is set. */
function connector(options: { decline?: boolean; signer?: typeof wallet } = {}) {
  const signed: string[] = []
  const c: Connector = {
    id: 'dev.doorway.wallet',
    name: 'Doorway Dev Wallet',
    type: 'ANNOUNCED',
    namespaces: ['eip155'],
    async request({ method, params }) {
      if (method !== 'personal_sign') return null
      if (options.decline) throw Errors.userRejected()
      const [hex] = params as [`0x${string}`]
      signed.push(hexToString(hex))
      return (options.signer ?? wallet).signMessage({ message: hexToString(hex) })
    },
  }
  return { connector: c, signed }
}

/** A store on a fake host that runs the dapp's functions as the SDK does (sdk/src/internal/siwx.ts). */
/** Another namespace's network, address and wallet to connect instead of the EVM test wallet. */
type Chain = { network: Protocol.Network; address: string; connector: Connector }

function setup(options: { siwx?: object; flags?: Partial<NonNullable<Protocol.Config['siwx']>>; decline?: boolean; hang?: boolean; chain?: Chain } = {}) {
  const store = createStore()
  // As the app does (src/wire.ts): sign-in follows the core's connection events.
  wireSignIn(store)
  const events: Protocol.FrameEvent[] = []
  const calls: string[] = []
  const target = options.siwx ?? dappSiwx().siwx
  const call = vi.fn(async (method: string, params: unknown, callOptions?: { timeoutMs?: number }) => {
    if (method === 'event') return void events.push(params as Protocol.FrameEvent)
    const { fn, args } = params as { fn: Protocol.SiwxFunction; args: unknown[] }
    calls.push(fn)
    if (options.hang) return new Promise((_, reject) => setTimeout(() => reject(Errors.timedOut()), callOptions?.timeoutMs))
    return SiwxHost.call(target, { fn, args })
  })
  store.set(hostAtom, { host: { call } as never, warn: () => {} })
  store.set(hostOriginAtom, 'https://dapp.example')
  const siwx = { siwe: false, signMessage: false, signOutOnDisconnect: true, required: false, ...options.flags }
  store.set(configAtom, { basic: false, embedded: false, networks: [options.chain?.network ?? network], siwx } as unknown as Protocol.Config)
  const wallet_ = connector({ decline: options.decline })
  /** The person connects the wallet in a connect view. */
  const connect = async () => {
    store.set(openModalAtom)
    const { connector, address, network: { caipNetworkId } } = options.chain ?? { connector: wallet_.connector, address: wallet.address, network }
    store.set(establishAtom, { account: { connector, address, chainId: caipNetworkId }, restored: false })
    store.set(connectedHomeAtom)
    await settled(store)
  }
  const results = () => events.filter((e) => e.type === 'result').map((e) => (e as { result: Protocol.OpenResult }).result)
  return { store, events, calls, call, connect, results, signed: wallet_.signed }
}

/** Lets the flow's host calls (promises and the lazy chunk) settle. */
const settled = async (store: ReturnType<typeof createStore>) => {
  await vi.waitFor(() => expect(store.get(signInAtom).step).not.toBe('checking'))
  await new Promise((resolve) => setTimeout(resolve, 0))
}

describe('sign-in on connect (spec §4)', () => {
  test('behavior: no session: SIWXSignMessage opens, close is locked while required, open() waits', async () => {
    const { store, connect, results } = setup()
    await connect()
    expect(store.get(routeAtom).view).toBe('SIWXSignMessage')
    expect(store.get(signInAtom)).toEqual({ step: 'ready', required: true })
    expect(store.get(closeLockedAtom)).toBe(true)
    expect(results()).toEqual([])
  })

  test('behavior: signing with the wallet gives the dapp a session; the modal closes and open() settles with it', async () => {
    const { store, connect, results, signed } = setup()
    await connect()
    await store.set(Flow.signAtom)
    expect(signed).toHaveLength(1)
    expect(signed[0]).toContain(wallet.address)
    const session = store.get(sessionAtom)!
    expect(await verifyMessage({ address: wallet.address, message: session.message, signature: session.signature as `0x${string}` })).toBe(true)
    expect(store.get(openAtom)).toBe(false)
    expect(store.get(closeLockedAtom)).toBe(false)
    expect(results()).toEqual([{ status: 'connected', address: wallet.address, caipAddress: `${chainId}:${wallet.address}`, chainId, session: { data: session.data, message: session.message, signature: session.signature } }])
  })

  test('behavior: an existing session asks nothing; a connection made now goes on to Account and settles with it', async () => {
    const dapp = dappSiwx()
    const first = setup({ siwx: dapp.siwx })
    await first.connect()
    await first.store.set(Flow.signAtom)
    const again = setup({ siwx: dapp.siwx })
    await again.connect()
    expect(again.store.get(routeAtom).view).toBe('Account')
    expect(again.signed).toEqual([])
    expect(again.results()).toEqual([expect.objectContaining({ status: 'connected', session: expect.objectContaining({ signature: dapp.sessions[0]!.signature }) })])
  })

  test('behavior: a restored connection with a live session asks nothing and does not open the modal', async () => {
    const dapp = dappSiwx()
    const first = setup({ siwx: dapp.siwx })
    await first.connect()
    await first.store.set(Flow.signAtom)
    const reload = setup({ siwx: dapp.siwx })
    reload.store.set(establishAtom, { account: { connector: connector().connector, address: wallet.address, chainId }, restored: true })
    await settled(reload.store)
    expect(reload.store.get(openAtom)).toBe(false)
    expect(reload.store.get(signInAtom)).toEqual({ step: 'idle' })
    expect(reload.events.filter((e) => e.type === 'show')).toEqual([])
  })

  test('behavior: a restored connection without a session opens the modal on the sign view', async () => {
    const { store, events } = setup()
    store.set(establishAtom, { account: { connector: connector().connector, address: wallet.address, chainId }, restored: true })
    await settled(store)
    expect(store.get(openAtom)).toBe(true)
    expect(store.get(routeAtom).view).toBe('SIWXSignMessage')
    expect(events.some((e) => e.type === 'show')).toBe(true)
  })

  test('behavior: declining reopens the view with "Signature declined"; signing again works', async () => {
    const { store, connect } = setup({ decline: true })
    await connect()
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toEqual({ step: 'ready', required: true, error: errors.signatureDeclined })
    expect(store.get(routeAtom).view).toBe('SIWXSignMessage')
    expect(store.get(accountAtom)).not.toBeNull()
  })

  test('behavior: a smart account that declines gets the smart-account message (spec §8)', async () => {
    const { store } = setup({ decline: true })
    const { connector: c } = connector({ decline: true })
    store.set(establishAtom, { account: { connector: { ...c, accountType: 'smartAccount' }, address: wallet.address, chainId }, restored: false })
    await settled(store)
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toMatchObject({ error: errors.smartAccountsNotSupported })
  })

  test('behavior: cancelling while required disconnects and goes back to Connect', async () => {
    const { store, connect, events } = setup()
    await connect()
    await store.set(Flow.cancelAtom)
    expect(store.get(accountAtom)).toBeNull()
    expect(store.get(routeAtom).view).toBe('Connect')
    expect(store.get(openAtom)).toBe(true)
    expect(events.some((e) => e.type === 'disconnect')).toBe(true)
  })

  test('behavior: with getRequired false, cancelling only closes; open() settles connected without a session', async () => {
    const { siwx } = dappSiwx({ getRequired: () => false })
    const { store, connect, results } = setup({ siwx })
    await connect()
    expect(store.get(closeLockedAtom)).toBe(false)
    await store.set(Flow.cancelAtom)
    expect(store.get(accountAtom)).not.toBeNull()
    expect(store.get(openAtom)).toBe(false)
    expect(results()).toEqual([{ status: 'connected', address: wallet.address, caipAddress: `${chainId}:${wallet.address}`, chainId }])
  })

  test('behavior: the close button shakes while locked; a close from the host cancels (required: disconnects)', async () => {
    const { store, connect } = setup()
    await connect()
    store.set(closeModalAtom)
    expect(store.get(shakeAtom)).toBe(true)
    expect(store.get(openAtom)).toBe(true)
    store.set(closeModalAtom, { silent: true })
    await vi.waitFor(() => expect(store.get(accountAtom)).toBeNull())
  })

  test('behavior: a dapp that refuses the signature (addSession throws) keeps the view with a message', async () => {
    const { siwx } = dappSiwx({ addSession: async () => Promise.reject(new Error('nope')) })
    const { store, connect } = setup({ siwx })
    await connect()
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toEqual({ step: 'ready', required: true, error: siwxText.notAccepted })
    expect(store.get(sessionAtom)).toBeNull()
  })

  test('behavior: the dapp may sign itself (siwx.signMessage): the wallet is not asked', async () => {
    const signMessage = vi.fn(async ({ message }: { message: string }) => wallet.signMessage({ message }))
    const { siwx } = dappSiwx({ signMessage })
    const { store, connect, signed } = setup({ siwx, flags: { signMessage: true } })
    await connect()
    await store.set(Flow.signAtom)
    expect(signMessage).toHaveBeenCalledWith({ message: expect.stringContaining(wallet.address), chainId, accountAddress: wallet.address })
    expect(signed).toEqual([])
    expect(store.get(sessionAtom)).not.toBeNull()
  })

  test('behavior: disconnecting with signOutOnDisconnect makes the dapp forget its sessions', async () => {
    const dapp = dappSiwx()
    const { store, connect } = setup({ siwx: dapp.siwx })
    await connect()
    await store.set(Flow.signAtom)
    expect(dapp.sessions).toHaveLength(1)
    await store.set(disconnectAtom)
    await vi.waitFor(() => expect(dapp.sessions).toEqual([]))
  })

  test('behavior: another account asks again; its own session is not the first one’s', async () => {
    const dapp = dappSiwx()
    const { store, connect } = setup({ siwx: dapp.siwx })
    await connect()
    await store.set(Flow.signAtom)
    store.set(accountEventAtom, { event: 'accountsChanged', data: [other.address] })
    await settled(store)
    expect(store.get(openAtom)).toBe(true)
    expect(store.get(routeAtom).view).toBe('SIWXSignMessage')
  })
})

describe('sign-in in other namespaces (features/namespaces)', () => {
  const polkadot = 'polkadot:91b171bb158e2d3848fa23a9f1c25182' as const
  const address = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'

  test("behavior: a Polkadot account signs with polkadot_signMessage on its chain; the dapp keeps the wallet's hex signature", async () => {
    const signature = `0x${'ab'.repeat(64)}`
    const request = vi.fn(async () => ({ id: 1, signature }))
    const connector: Connector = { id: 'walletConnect', name: 'WalletConnect', type: 'WALLET_CONNECT', namespaces: ['polkadot'], request }
    const { siwx, sessions } = dappSiwx({ addSession: async (session) => void sessions.push(session) })
    const chain = { network: { ...network, caipNetworkId: polkadot, name: 'Polkadot' }, address, connector }
    const { store, connect } = setup({ siwx, chain })
    await connect()
    await store.set(Flow.signAtom)
    expect(request).toHaveBeenCalledWith({ method: 'polkadot_signMessage', params: { address, message: expect.stringContaining(address) } }, polkadot)
    expect(sessions.map((s) => s.signature)).toEqual([signature])
    expect(store.get(signInAtom)).toEqual({ step: 'idle' })
  })

  test('error: a Solana account whose wallet cannot sign Solana messages fails to sign, without asking personal_sign', async () => {
    const request = vi.fn(async () => '0x00')
    const connector: Connector = { id: 'x', name: 'X', type: 'ANNOUNCED', namespaces: ['solana'], request }
    const chain = { network: { ...network, caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as const, name: 'Solana' }, address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', connector }
    const { store, connect } = setup({ chain })
    await connect()
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toEqual({ step: 'ready', required: true, error: siwxText.signFailed })
    expect(request).not.toHaveBeenCalled()
  })
})

describe('failures (spec §8)', () => {
  test('error: a createMessage that throws: the init message, a disconnect, back to Connect', async () => {
    const { siwx } = dappSiwx({ createMessage: async () => Promise.reject(new Error('nonce server down')) })
    const { store, connect } = setup({ siwx })
    await connect()
    await store.set(Flow.signAtom)
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: errors.authenticationInitFailed })
    expect(store.get(accountAtom)).toBeNull()
    expect(store.get(routeAtom).view).toBe('Connect')
  })

  test('error: a getSessions that hangs is cut by the timeout with the init message', async () => {
    const { store, call } = setup({ hang: true })
    vi.useFakeTimers()
    try {
      store.set(openModalAtom)
      store.set(establishAtom, { account: { connector: connector().connector, address: wallet.address, chainId }, restored: false })
      await vi.waitFor(() => expect(call).toHaveBeenCalledWith('siwx', { fn: 'getSessions', args: [chainId, wallet.address] }, { timeoutMs: Flow.callTimeoutMs }))
      expect(store.get(accountAtom)).not.toBeNull()
      await vi.advanceTimersByTimeAsync(Flow.callTimeoutMs)
      await vi.waitFor(() => expect(store.get(accountAtom)).toBeNull())
      expect(store.get(toastAtom).toast?.message).toBe(errors.authenticationInitFailed)
    } finally {
      vi.useRealTimers()
    }
  })

  test('error: a message for another account or an answer of the wrong shape fails to start', async () => {
    for (const createMessage of [
      async (input: SiwxInput) => ({ ...input, accountAddress: other.address, domain: 'd', uri: 'https://d', version: '1', nonce: 'n', toString: () => 'x' }),
      async () => ({ nonsense: true }) as never,
    ]) {
      const { siwx } = dappSiwx({ createMessage })
      const { store, connect } = setup({ siwx })
      await connect()
      await store.set(Flow.signAtom)
      expect(store.get(toastAtom).toast?.message).toBe(errors.authenticationInitFailed)
      expect(store.get(accountAtom)).toBeNull()
    }
  })

  test('error: the §8 sign-in errors where they apply', async () => {
    const { store, connect } = setup()
    await connect()
    store.set(configAtom, { ...store.get(configAtom)!, networks: [] })
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toMatchObject({ error: errors.noActiveCaipNetwork })
    store.set(configAtom, { ...store.get(configAtom)!, networks: [network] as never })
    store.set(accountAtom, null)
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toMatchObject({ error: errors.noActiveCaipAddress })
    store.set(configAtom, { ...store.get(configAtom)!, siwx: undefined })
    await store.set(Flow.signAtom)
    expect(store.get(signInAtom)).toMatchObject({ error: errors.siwxNotEnabled })
  })
})

describe('siweConfig (the older shape, spec §2 ConnectingSiwe)', () => {
  function siwe(overrides: Partial<SiweConfig> = {}) {
    let session: { address: string; chainId: number } | null = null
    const config: SiweConfig = {
      getNonce: vi.fn(async () => 'siwe-nonce-1'),
      getMessageParams: async () => ({ statement: 'Sign in to the dapp' }),
      createMessage: vi.fn((args) => `${args.domain} wants you to sign in: ${args.address} chain ${args.chainId} nonce ${args.nonce}`),
      verifyMessage: vi.fn(async ({ message, signature }) => verifyMessage({ address: wallet.address, message, signature: signature as `0x${string}` })),
      getSession: async () => session,
      signOut: vi.fn(async () => ((session = null), true)),
      onSignIn: vi.fn(),
      ...overrides,
    }
    const verify = config.verifyMessage
    config.verifyMessage = async (args) => {
      const ok = await verify(args)
      if (ok) session = { address: wallet.address, chainId: 31337 }
      return ok
    }
    return config
  }

  test('behavior: shown as ConnectingSiwe; the dapp’s own text is signed and verified; onSignIn runs', async () => {
    const config = siwe()
    const { store, connect, signed, results } = setup({ siwx: config, flags: { siwe: true, required: true } })
    await connect()
    expect(store.get(routeAtom).view).toBe('ConnectingSiwe')
    await store.set(Flow.signAtom)
    expect(signed).toEqual([`dapp.example wants you to sign in: ${chainId}:${wallet.address} chain 31337 nonce siwe-nonce-1`])
    expect(config.onSignIn).toHaveBeenCalledWith({ address: wallet.address, chainId: 31337 })
    expect(results()[0]).toMatchObject({ status: 'connected', session: { message: signed[0] } })
  })

  test('behavior: a refused verification keeps the view with a message; a session found asks nothing', async () => {
    const refusing = setup({ siwx: siwe({ verifyMessage: async () => false }), flags: { siwe: true, required: true } })
    await refusing.connect()
    await refusing.store.set(Flow.signAtom)
    expect(refusing.store.get(signInAtom)).toMatchObject({ error: siwxText.notAccepted })

    const signedIn = setup({ siwx: siwe({ getSession: async () => ({ address: wallet.address, chainId: 31337 }) }), flags: { siwe: true, required: true } })
    await signedIn.connect()
    expect(signedIn.store.get(routeAtom).view).toBe('Account')
  })

  test('behavior: disconnecting signs out of the dapp', async () => {
    const config = siwe()
    const { store, connect } = setup({ siwx: config, flags: { siwe: true, required: true } })
    await connect()
    await store.set(Flow.signAtom)
    await store.set(disconnectAtom)
    await vi.waitFor(() => expect(config.signOut).toHaveBeenCalled())
  })
})
