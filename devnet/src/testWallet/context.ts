/**
 * The test wallet's state (the sdk, its chains, the current account and chain, the proposal policy, the
 * pairings waiting for a proposal) and the steps its handlers share, as free functions over one explicit
 * context that TestWallet.create builds.
 */
import type { WalletKit } from '@reown/walletkit'
import type { Core } from '@walletconnect/core'
import type { SessionTypes } from '@walletconnect/types'
import type { HDAccount } from 'viem/accounts'
import type * as Calls from '@doorway/examples/dev-wallet/Calls'
import type * as TestWallet from '../testWallet.js'
import * as Bitcoin from './bitcoin.js'
import * as Polkadot from './polkadot.js'
import * as Solana from './solana.js'

/** What the wallet's sessions offer (CAIP-25 namespace eip155), EIP-5792's batches included (issue 25). */
export const methods = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
] as const
export const events = ['chainChanged', 'accountsChanged'] as const

export type Context = {
  readonly core: InstanceType<typeof Core>
  readonly kit: InstanceType<typeof WalletKit>
  /** The first is the chain the wallet starts on. */
  readonly chains: readonly TestWallet.Chain[]
  readonly log: ((line: string) => void) | undefined
  /** Every session request answered so far, oldest first. */
  readonly handled: TestWallet.Handled[]
  /** The pairings waiting for what the policy does to the next proposal. */
  readonly waiters: Set<(session: SessionTypes.Struct | undefined) => void>
  policy: TestWallet.Policy
  account: HDAccount
  /** The chain the wallet is on: what chainChanged last said. */
  current: TestWallet.Chain
  /** The accounts of the other namespaces the wallet was created with, each on its one chain. */
  readonly others: Others
  /** The eip155 methods its sessions offer: `methods`, unless it was created with fewer. */
  readonly methods: readonly string[]
  /** The EIP-5792 batches it sent, by id. */
  readonly batches: Calls.Store
}

/** The namespaces besides eip155 that the wallet may offer, when created with their options. */
export const otherNamespaces = ['solana', 'bip122', 'polkadot'] as const
export type OtherNamespace = (typeof otherNamespaces)[number]

export type Others = {
  readonly solana?: Solana.Account
  readonly bip122?: Bitcoin.Account
  readonly polkadot?: Polkadot.Account
}

/** The other namespaces' accounts, from TestWallet.create's options (polkadot's keys need its wasm first). */
export async function others(options: {
  solana?: Solana.Options | undefined
  bitcoin?: Bitcoin.Options | undefined
  polkadot?: Polkadot.Options | undefined
}): Promise<Others> {
  return {
    ...(options.solana && { solana: Solana.account(options.solana) }),
    ...(options.bitcoin && { bip122: Bitcoin.account(options.bitcoin) }),
    ...(options.polkadot && { polkadot: await Polkadot.account(options.polkadot) }),
  }
}

const modules = { solana: Solana, bip122: Bitcoin, polkadot: Polkadot } as const

/** The session namespace the wallet offers in another namespace: its one chain and account. */
function otherNamespace(others: Others, namespace: OtherNamespace): SessionTypes.Namespace | undefined {
  const account = others[namespace]
  if (!account) return undefined
  const { methods, events } = modules[namespace]
  return { chains: [account.chainId], accounts: [`${account.chainId}:${account.address}`], methods: [...methods], events: [...events] }
}

export const caip2 = (id: number) => `eip155:${id}`

/**
 * The wallet's chains and its current account, as it approves or updates a session: eip155 always, and
 * each of `offered` the wallet has an account in.
 */
export function namespaces(context: Context, offered: Iterable<string> = []): SessionTypes.Namespaces {
  const { chains, account } = context
  const result: SessionTypes.Namespaces = {
    eip155: {
      chains: chains.map((c) => caip2(c.id)),
      accounts: chains.map((c) => `${caip2(c.id)}:${account.address}`),
      methods: [...context.methods],
      events: [...events],
    },
  }
  for (const key of offered) {
    const namespace = isOther(key) ? otherNamespace(context.others, key) : undefined
    if (namespace) result[key] = namespace
  }
  return result
}

/** Every chain the wallet has, in every namespace (CAIP-2). */
export function walletChains(context: Context): Set<string> {
  const others = otherNamespaces.flatMap((key) => context.others[key]?.chainId ?? [])
  return new Set([...context.chains.map((c) => caip2(c.id)), ...others])
}

export const isOther = (key: string): key is OtherNamespace => (otherNamespaces as readonly string[]).includes(key)

/** Tells every waiting pairing what became of the proposal. */
export function settle(context: Context, session: SessionTypes.Struct | undefined): void {
  for (const resolve of context.waiters) resolve(session)
  context.waiters.clear()
}
