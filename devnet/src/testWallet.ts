/**
 * A WalletConnect wallet for tests and local tries of the QR flow: @reown/walletkit over the devnet relay
 * (relay.ts), signing with the devnet's test accounts and sending to the anvil chains. Created with the
 * `solana`, `bitcoin` or `polkadot` options, its sessions also carry an account of that namespace when the
 * dapp asks for its chain (testWallet/solana.ts, bitcoin.ts, polkadot.ts). Dev and test only, never
 * shipped. `import * as TestWallet from './testWallet.js'` → `await TestWallet.create({ … })`.
 * Its state and the steps over it are testWallet/context.ts; proposals and the changes it announces are
 * testWallet/sessions.ts; the answer to each session request is testWallet/requests.ts.
 */
import { WalletKit } from '@reown/walletkit'
import { Core } from '@walletconnect/core'
import type { SessionTypes } from '@walletconnect/types'
import type { Address } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import * as Calls from '@doorway/examples/dev-wallet/Calls'
import { mnemonic } from './tokens.js'
import * as Context from './testWallet/context.js'
import * as Requests from './testWallet/requests.js'
import * as Sessions from './testWallet/sessions.js'
import type * as Bitcoin from './testWallet/bitcoin.js'
import type * as Polkadot from './testWallet/polkadot.js'
import type * as Solana from './testWallet/solana.js'

export { methods, events } from './testWallet/context.js'

export type Chain = { id: number; rpcUrl: string }

/** What the wallet does with a session proposal. */
export type Policy = 'approve' | 'reject'

/** The wallet's account in a namespace besides eip155, on its one chain (CAIP-2). */
export type Account = { namespace: Context.OtherNamespace; chainId: string; address: string }

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
  /** Its solana, bip122 and polkadot accounts, those it was created with (eip155's is address()). */
  otherAccounts(): Account[]
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

export async function create(options: create.Options): Promise<TestWallet> {
  const { relayUrl, chains, accountIndex = 0, storagePrefix = 'doorway-test-wallet', log } = options
  if (chains.length === 0) throw new Error('A test wallet needs at least one chain')
  // The SDKs' own offline switch (local-infra.md): with IS_VITEST=true WalletKit skips the pulse
  // telemetry INIT event it sends to pulse.walletconnect.org even with telemetryEnabled: false, and
  // Verify never fetches. This module is a Node-only dev/test tool, never in a shipped build; setting
  // it here covers the vitest process and the standalone CLI alike.
  process.env.IS_VITEST = 'true'

  const policy = options.policy ?? 'approve'
  const account = mnemonicToAccount(mnemonic, { addressIndex: accountIndex })
  // Before the relay connection, so a failure here leaves nothing open.
  const others = await Context.others(options)
  const core = new Core({ projectId: 'doorway-test', relayUrl, customStoragePrefix: storagePrefix, logger: 'silent' })
  const kit = await WalletKit.init({
    core,
    metadata: { name: 'Doorway test wallet', description: 'devnet WalletConnect wallet', url: 'http://127.0.0.1', icons: [] },
  })
  const methods = options.methods ?? Context.methods
  const context: Context.Context = { core, kit, chains, log, handled: [], waiters: new Set(), policy, account, current: chains[0]!, others, methods, batches: Calls.create() }

  kit.on('session_proposal', (proposal) => Sessions.propose(context, proposal))
  kit.on('session_request', (event) => Requests.respond(context, event))
  kit.on('session_delete', ({ topic }) => log?.(`the dapp ended session ${topic.slice(0, 8)}…`))

  return {
    address: () => context.account.address,
    chainId: () => context.current.id,
    otherAccounts: () =>
      Context.otherNamespaces.flatMap((namespace) => {
        const other = others[namespace]
        return other ? [{ namespace, chainId: other.chainId, address: other.address }] : []
      }),
    pair: (uri, { timeoutMs = 30_000 } = {}) => Sessions.pair(context, uri, timeoutMs),
    onProposal: (next) => void (context.policy = next),
    sessions: () => Object.values(kit.getActiveSessions()),
    switchChain: (id) => Sessions.switchChain(context, id),
    changeAccount: (index) => Sessions.changeAccount(context, index),
    disconnect: (topic) => Sessions.disconnect(context, topic),
    requests: () => context.handled,
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
    /**
     * The eip155 methods its sessions offer, to play a wallet that lacks some (say EIP-5792's). Default:
     * every method it answers (`methods`).
     */
    methods?: readonly string[]
    /** Receives one line per thing the wallet does (the CLI prints them); a batch's line lists its calls. */
    log?: (line: string) => void
    /** Offer solana dev key 0 (solana/keys.ts) on `chainId`, sending to `rpcUrl` (solana/rpc.ts). */
    solana?: Solana.Options
    /** Offer the payment account of bitcoin dev key 0 (bitcoin/keys.ts) on `chainId`, over the Esplora API at `esploraUrl`. */
    bitcoin?: Bitcoin.Options
    /** Offer `//Alice` (sr25519) on `chainId`; there is no chain behind it, only signatures. */
    polkadot?: Polkadot.Options
  }
}
