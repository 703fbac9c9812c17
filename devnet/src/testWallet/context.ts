/**
 * The test wallet's state (the sdk, its chains, the current account and chain, the proposal policy, the
 * pairings waiting for a proposal) and the steps its handlers share, as free functions over one explicit
 * context that TestWallet.create builds.
 */
import type { WalletKit } from '@reown/walletkit'
import type { Core } from '@walletconnect/core'
import type { SessionTypes } from '@walletconnect/types'
import type { HDAccount } from 'viem/accounts'
import type * as TestWallet from '../testWallet.js'

/** What the wallet's sessions offer (CAIP-25 namespace eip155). */
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
}

export const caip2 = (id: number) => `eip155:${id}`

/** The wallet's chains and its current account, as it approves or updates a session. */
export function namespaces(context: Context): SessionTypes.Namespaces {
  const { chains, account } = context
  return {
    eip155: {
      chains: chains.map((c) => caip2(c.id)),
      accounts: chains.map((c) => `${caip2(c.id)}:${account.address}`),
      methods: [...methods],
      events: [...events],
    },
  }
}

/** Tells every waiting pairing what became of the proposal. */
export function settle(context: Context, session: SessionTypes.Struct | undefined): void {
  for (const resolve of context.waiters) resolve(session)
  context.waiters.clear()
}
