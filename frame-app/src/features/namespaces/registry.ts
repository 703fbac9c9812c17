/**
 * The namespace registry (issue 23): what the frame knows of each namespace of spec §3 Identifiers
 * (eip155, solana, polkadot, bip122), as data the Send flow, the sign-in and the Account view read
 * instead of branching on the namespace. An entry is small and synchronous: the Account actions, the
 * receiver address rule (spec §5 Address formats), whether balances and names are read. Its runtime
 * (sign-in signature, transfers) comes from `load()`: eip155's is in this module, every other one is
 * a lazy chunk of its own (solana.ts, bitcoin.ts, polkadot.ts), fetched only when an account of that
 * namespace signs in or sends.
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Name from '@doorway/shared/Name'
import type * as Protocol from '@doorway/shared/Protocol'
import { getAddress } from 'viem'
import type { Balance } from '../../api/client.js'
import type { Account } from '../../core/connection.js'
import { personalSign } from '../../core/connectors/personalSign.js'

/** A wallet feature of walletFeaturesOrder (spec §1): an action of the Account view. */
export type Feature = Protocol.Features['walletFeaturesOrder'][number]

/** The key of a refused receiver's text (shared/texts/send.ts `errors`). */
export type ReceiverError = 'receiverInvalid' | 'receiverChecksum' | 'receiverInvalidSolana' | 'receiverInvalidBitcoin'
/** A typed receiver as its namespace reads it: an address, a name to resolve, or why it is neither. */
export type Receiver = { kind: 'empty' } | { kind: 'address'; address: string } | { kind: 'name'; name: string } | { kind: 'invalid'; error: ReceiverError }

export type Entry = {
  /** The wallet features the Account view offers in this namespace (filtered by the dapp's features). */
  features: readonly Feature[]
  /** spec §5: a trimmed, non-empty receiver read by the namespace's address rule. */
  receiver(text: string): Exclude<Receiver, { kind: 'empty' }>
  /** Whether the frame reads the namespace's balances; if not, the Account view says so. */
  balances: boolean
  /** Whether the name service (spec §7) names this namespace's addresses. */
  names: boolean
  /** The namespace's runtime: eip155's at once, the others' as their own chunk. */
  load(): Promise<Runtime>
}

export type Runtime = {
  /** spec §4 Sign-in: the account's signature of the message, in the form its namespace's verifiers read. */
  signIn(account: Account, message: string): Promise<string>
  /**
   * The namespace's transfers. None for eip155, whose EVM path is the Send flow's own
   * (features/send/send.ts), and none for a namespace without the send feature.
   */
  transfer?: Transfer
}

export type Transfer = {
  /** The fee, as gas × gasPrice in the native token's base units; throws what the chain would refuse. */
  estimate(request: TransferRequest): Promise<Fee>
  /** The wallet signs and the transfer goes out; `settled` follows it until the chain decides. */
  send(request: TransferRequest): Promise<Sent>
  /** spec §8: the toast of a failed send in this namespace. */
  failed: string
  /**
   * A failure after which nothing was sent (the node unreachable, the blockhash expired before it took
   * the transaction): the form stays, for Send again (issue 23: 'loses nothing', 'can be retried').
   */
  kept?(error: unknown): boolean
}
/** `units` is the amount in the token's base units; `rpcUrl` the active network's node. */
export type TransferRequest = { account: Account; rpcUrl: string | undefined; token: Balance; units: bigint; receiver: string }
/** `rent` is set when the transfer opens an account the sender pays for (a Solana token account). */
export type Fee = { gas: bigint; gasPrice: bigint; rent?: bigint }
/** `expired`: the chain dropped it unlanded (a Solana blockhash too old): nothing was sent. */
export type Sent = { hash: string; settled(): Promise<'confirmed' | 'failed' | 'expired'> }

/**
 * An EVM receiver (spec §5: 40 hex digits, optional 0x), given with its EIP-55 checksum, or a name to
 * resolve. A mixed-case address must carry a valid checksum: a wrong one is almost always a typo.
 */
function evmReceiver(value: string): Exclude<Receiver, { kind: 'empty' }> {
  if (Address.isEvmAddress(value)) {
    const hex = value.replace(/^0x/, '')
    const address = getAddress(`0x${hex.toLowerCase()}`)
    const mixed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
    if (mixed && address.slice(2) !== hex) return { kind: 'invalid', error: 'receiverChecksum' }
    return { kind: 'address', address }
  }
  // (isEvmAddress narrows a string that is no address to never)
  const name = value as string
  if (Name.isNameReference(name)) return { kind: 'name', name: name.toLowerCase() }
  return { kind: 'invalid', error: 'receiverInvalid' }
}

/** A receiver that is an address by `rule`, or refused with `error`; names resolve to EVM addresses only. */
const addressBy =
  (rule: (value: string) => boolean, error: ReceiverError) =>
  (value: string): Exclude<Receiver, { kind: 'empty' }> =>
    rule(value) ? { kind: 'address', address: value } : { kind: 'invalid', error }

/** A Bitcoin address: bech32 (bc1, tb1, bcrt1) or base58 (P2PKH, P2SH, testnet); the wallet checks the rest. */
const bitcoinAddress = /^((bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87}|[123mn][1-9A-HJ-NP-Za-km-z]{25,34})$/

/** EVM wallets sign a sign-in message as EIP-191 personal_sign (SIWE, EIP-4361). */
const evm: Runtime = { signIn: personalSign }

/**
 * Swaps and buying are EVM's (the api quotes an EVM exchange, the onramp delivers on EVM chains);
 * Solana and Bitcoin send; Polkadot only receives, and no Polkadot chain runs locally for balances.
 */
export const registry: Record<Caip.Namespace, Entry> = {
  eip155: { features: ['onramp', 'swaps', 'receive', 'send'], receiver: evmReceiver, balances: true, names: true, load: async () => evm },
  solana: {
    features: ['receive', 'send'],
    // spec §5: 32 to 44 base58 characters.
    receiver: addressBy(Address.isSolanaAddress, 'receiverInvalidSolana'),
    balances: true,
    names: false,
    load: () => import('./solana.js').then((m) => m.runtime),
  },
  bip122: {
    features: ['receive', 'send'],
    receiver: addressBy((value) => bitcoinAddress.test(value), 'receiverInvalidBitcoin'),
    balances: true,
    names: false,
    load: () => import('./bitcoin.js').then((m) => m.runtime),
  },
  polkadot: {
    features: ['receive'],
    // Nothing is sent on Polkadot (spec §4: sendToken refuses its chain), so no rule of its own.
    receiver: evmReceiver,
    balances: false,
    names: false,
    load: () => import('./polkadot.js').then((m) => m.runtime),
  },
}

/** The entry of a CAIP-2 network's namespace. */
export const of = (chainId: string): Entry => registry[Caip.parseChainId(chainId).namespace]

/** Whether the namespace sends (spec §4: sendToken throws 'Unsupported chain' otherwise). */
export const sends = (entry: Entry): boolean => entry.features.includes('send')
