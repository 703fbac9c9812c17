/**
 * A WalletConnect wallet for tests and local tries of the QR flow: @reown/walletkit over the devnet relay
 * (relay.ts), signing with the devnet's test accounts and sending to the anvil chains. Dev and test only,
 * never shipped. `import * as TestWallet from './testWallet.js'` → `await TestWallet.create({ … })`.
 */
import { WalletKit, type WalletKitTypes } from '@reown/walletkit'
import { Core } from '@walletconnect/core'
import type { SessionTypes } from '@walletconnect/types'
import {
  type Address,
  type Hex,
  type TypedDataDefinition,
  createWalletClient,
  hexToBigInt,
  http,
  isHex,
  isAddressEqual,
  numberToHex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import * as Anvil from './anvil.js'
import { mnemonic } from './tokens.js'

export type Chain = { id: number; rpcUrl: string }

/** What the wallet does with a session proposal. */
export type Policy = 'approve' | 'reject'

/** One session request the wallet answered, for tests to inspect. */
export type Handled = {
  method: string
  chainId: string
  result?: unknown
  error?: { code: number; message: string }
}

export type TestWallet = {
  /** The current account. */
  address(): Address
  /** The chain the wallet is on: what chainChanged last said. */
  chainId(): number
  /**
   * Pairs with a `wc:` URI and resolves with what the policy did to the proposal that follows: the
   * session, or `undefined` when it was rejected.
   */
  pair(uri: string, options?: { timeoutMs?: number }): Promise<SessionTypes.Struct | undefined>
  /** Sets what the next proposals get. */
  onProposal(policy: Policy): void
  sessions(): SessionTypes.Struct[]
  /** Switches the wallet to another of its chains and emits chainChanged on every session. */
  switchChain(id: number): Promise<void>
  /** Switches to another account of the test mnemonic: a session update, then accountsChanged. */
  changeAccount(index: number): Promise<void>
  /** Ends one session, or all of them. */
  disconnect(topic?: string): Promise<void>
  /** Every session request answered so far, oldest first. */
  requests(): readonly Handled[]
  /** Closes the relay connection and the sdk's timers. */
  stop(): Promise<void>
}

export const methods = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
] as const
export const events = ['chainChanged', 'accountsChanged'] as const

// EIP-1193 / EIP-3326 / CAIP-25 error codes with the messages the specs give.
const rpcErrors = {
  unauthorized: { code: 4100, message: 'The requested account and/or method has not been authorized by the user.' },
  unsupported: { code: 4200, message: 'The Provider does not support the requested method.' },
  unknownChain: { code: 4902, message: 'Unrecognized chain ID.' },
  invalidParams: { code: -32602, message: 'Invalid method parameters.' },
  internal: { code: -32603, message: 'Internal error.' },
} as const

class RpcError extends Error {
  constructor(readonly rpc: { code: number; message: string }) {
    super(rpc.message)
  }
}

export async function create(options: create.Options): Promise<TestWallet> {
  const { relayUrl, chains, accountIndex = 0, storagePrefix = 'doorway-test-wallet', log } = options
  if (chains.length === 0) throw new Error('A test wallet needs at least one chain')
  // The SDKs' own offline switch (local-infra.md): with IS_VITEST=true WalletKit skips the pulse
  // telemetry INIT event it sends to pulse.walletconnect.org even with telemetryEnabled: false, and
  // Verify never fetches. This module is a Node-only dev/test tool, never in a shipped build; setting
  // it here covers the vitest process and the standalone CLI alike.
  process.env.IS_VITEST = 'true'

  let policy: Policy = options.policy ?? 'approve'
  let account = mnemonicToAccount(mnemonic, { addressIndex: accountIndex })
  let current = chains[0]!
  const handled: Handled[] = []
  const waiters = new Set<(session: SessionTypes.Struct | undefined) => void>()

  const core = new Core({ projectId: 'doorway-test', relayUrl, customStoragePrefix: storagePrefix, logger: 'silent' })
  const kit = await WalletKit.init({
    core,
    metadata: { name: 'Doorway test wallet', description: 'devnet WalletConnect wallet', url: 'http://127.0.0.1', icons: [] },
  })

  const caip2 = (id: number) => `eip155:${id}`
  const namespaces = (): SessionTypes.Namespaces => ({
    eip155: {
      chains: chains.map((c) => caip2(c.id)),
      accounts: chains.map((c) => `${caip2(c.id)}:${account.address}`),
      methods: [...methods],
      events: [...events],
    },
  })
  const settle = (session: SessionTypes.Struct | undefined) => {
    for (const resolve of waiters) resolve(session)
    waiters.clear()
  }

  kit.on('session_proposal', async (proposal) => {
    const { id, params } = proposal
    const name = params.proposer.metadata.name || params.proposer.publicKey.slice(0, 8)
    const unsupported = unsupportedChains(params, chains)
    try {
      if (policy === 'reject' || unsupported.length > 0) {
        const reason = unsupported.length
          ? { code: 5100, message: `Unsupported chains. ${unsupported.join(', ')}` }
          : { code: 5000, message: 'User rejected.' }
        await kit.rejectSession({ id, reason })
        log?.(`rejected the proposal from ${name} (${reason.message})`)
        settle(undefined)
        return
      }
      const session = await kit.approveSession({ id, namespaces: namespaces() })
      log?.(`approved ${name}: ${account.address} on ${chains.map((c) => c.id).join(', ')}`)
      settle(session)
    } catch (error) {
      log?.(`proposal from ${name} failed: ${(error as Error).message}`)
      settle(undefined)
    }
  })

  kit.on('session_request', async (event) => {
    const { topic, id, params } = event
    const { method } = params.request
    let entry: Handled
    try {
      entry = { method, chainId: params.chainId, result: await answer(params) }
    } catch (error) {
      const rpc = error instanceof RpcError ? error.rpc : { ...rpcErrors.internal, message: (error as Error).message }
      entry = { method, chainId: params.chainId, error: rpc }
    }
    handled.push(entry)
    const response = entry.error ? { id, jsonrpc: '2.0', error: entry.error } : { id, jsonrpc: '2.0', result: entry.result }
    await kit
      .respondSessionRequest({ topic, response })
      .catch((error: Error) => log?.(`could not answer ${method}: ${error.message}`))
    log?.(`${method} on ${params.chainId} → ${entry.error ? `error ${entry.error.code}` : JSON.stringify(entry.result)}`)
  })

  kit.on('session_delete', ({ topic }) => log?.(`the dapp ended session ${topic.slice(0, 8)}…`))

  async function answer({ request, chainId }: WalletKitTypes.SessionRequest['params']): Promise<unknown> {
    const params = (request.params ?? []) as unknown[]
    switch (request.method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [account.address]
      case 'eth_chainId':
        return numberToHex(current.id)
      case 'personal_sign': {
        const [message, address] = params
        if (typeof message !== 'string') throw new RpcError(rpcErrors.invalidParams)
        assertOwn(address)
        // EIP-1193 personal_sign carries the message hex-encoded; some dapps send plain text.
        return account.signMessage({ message: isHex(message) ? { raw: message } : message })
      }
      case 'eth_signTypedData_v4': {
        const [address, data] = params
        assertOwn(address)
        const typed = (typeof data === 'string' ? JSON.parse(data) : data) as TypedDataDefinition
        return account.signTypedData(typed)
      }
      case 'eth_sendTransaction':
        return sendTransaction(chainOf(chainId), params[0])
      case 'wallet_switchEthereumChain': {
        const [{ chainId: hex } = {}] = params as { chainId?: string }[]
        if (typeof hex !== 'string') throw new RpcError(rpcErrors.invalidParams)
        await switchChain(Number(hex))
        return null
      }
      default:
        throw new RpcError(rpcErrors.unsupported)
    }
  }

  function assertOwn(address: unknown) {
    if (typeof address !== 'string' || !isHexAddress(address) || !isAddressEqual(address, account.address))
      throw new RpcError(rpcErrors.unauthorized)
  }

  /** A WalletConnect request names its chain (CAIP-2); it must be one of the wallet's. */
  function chainOf(caip: string): Chain {
    const chain = chains.find((c) => caip2(c.id) === caip)
    if (!chain) throw new RpcError(rpcErrors.unknownChain)
    return chain
  }

  async function sendTransaction(chain: Chain, tx: unknown): Promise<Hex> {
    if (typeof tx !== 'object' || tx === null) throw new RpcError(rpcErrors.invalidParams)
    const t = tx as Record<string, string | undefined>
    if (t.from !== undefined) assertOwn(t.from)
    const quantity = (key: string) => (t[key] === undefined ? undefined : hexToBigInt(t[key] as Hex))
    const client = createWalletClient({ account, chain: Anvil.viemChain(chain), transport: http(chain.rpcUrl) })
    const fees =
      t.gasPrice !== undefined
        ? { gasPrice: quantity('gasPrice') }
        : { maxFeePerGas: quantity('maxFeePerGas'), maxPriorityFeePerGas: quantity('maxPriorityFeePerGas') }
    return client.sendTransaction({
      to: t.to as Address | undefined,
      value: quantity('value'),
      data: t.data as Hex | undefined,
      gas: quantity('gas'),
      nonce: t.nonce === undefined ? undefined : Number(t.nonce),
      ...fees,
    } as Parameters<typeof client.sendTransaction>[0])
  }

  async function switchChain(id: number) {
    const chain = chains.find((c) => c.id === id)
    if (!chain) throw new RpcError(rpcErrors.unknownChain)
    current = chain
    for (const topic of Object.keys(kit.getActiveSessions()))
      await kit.emitSessionEvent({ topic, event: { name: 'chainChanged', data: id }, chainId: caip2(id) })
    log?.(`switched to chain ${id}`)
  }

  async function changeAccount(index: number) {
    account = mnemonicToAccount(mnemonic, { addressIndex: index })
    for (const topic of Object.keys(kit.getActiveSessions())) {
      // The session must list the account before the dapp may use it (CAIP-25): update, then announce.
      await kit.updateSession({ topic, namespaces: namespaces() })
      const data = [`${caip2(current.id)}:${account.address}`]
      await kit.emitSessionEvent({ topic, event: { name: 'accountsChanged', data }, chainId: caip2(current.id) })
    }
    log?.(`switched to account ${index}: ${account.address}`)
  }

  return {
    address: () => account.address,
    chainId: () => current.id,
    async pair(uri, { timeoutMs = 30_000 } = {}) {
      let timer: ReturnType<typeof setTimeout> | undefined
      let done = (_: SessionTypes.Struct | undefined) => {}
      const outcome = new Promise<SessionTypes.Struct | undefined>((resolve, reject) => {
        timer = setTimeout(() => {
          waiters.delete(done)
          reject(new Error(`No session proposal within ${timeoutMs} ms of pairing`))
        }, timeoutMs)
        done = (session) => {
          clearTimeout(timer)
          resolve(session)
        }
        waiters.add(done)
      })
      // The proposal may already wait in the relay's mailbox: listen before pairing. A pairing that
      // fails ends the wait too, so no timer rejects later with nobody listening.
      try {
        await kit.pair({ uri })
      } catch (error) {
        clearTimeout(timer)
        waiters.delete(done)
        throw error
      }
      log?.('paired, waiting for the proposal…')
      return outcome
    },
    onProposal: (next) => void (policy = next),
    sessions: () => Object.values(kit.getActiveSessions()),
    switchChain,
    changeAccount,
    async disconnect(topic) {
      const topics = topic ? [topic] : Object.keys(kit.getActiveSessions())
      for (const t of topics) await kit.disconnectSession({ topic: t, reason: { code: 6000, message: 'User disconnected.' } })
      log?.(`disconnected ${topics.length} session(s)`)
    },
    requests: () => handled,
    async stop() {
      core.heartbeat.stop()
      await core.relayer.transportClose()
    },
  }
}
export declare namespace create {
  type Options = {
    relayUrl: string
    /** The first is the chain the wallet starts on. */
    chains: readonly Chain[]
    /** Index into the test mnemonic ("test test … junk"), as anvil funds it. */
    accountIndex?: number
    /** Separates this wallet's sdk state from other WalletConnect clients in the same process. */
    storagePrefix?: string
    /** What proposals get until onProposal says otherwise. Default 'approve'. */
    policy?: Policy
    /** Receives one line per thing the wallet does (the CLI prints them). */
    log?: (line: string) => void
  }
}

const isHexAddress = (value: string): value is Address => /^0x[0-9a-fA-F]{40}$/.test(value)

/** Required chains the wallet does not have (CAIP-25: those make the proposal unacceptable). */
function unsupportedChains(params: WalletKitTypes.SessionProposal['params'], chains: readonly Chain[]): string[] {
  const have = new Set(chains.map((c) => `eip155:${c.id}`))
  return Object.entries(params.requiredNamespaces ?? {}).flatMap(([key, ns]) => {
    const wanted = key.includes(':') ? [key] : (ns.chains ?? [])
    return wanted.filter((chain) => !have.has(chain))
  })
}
