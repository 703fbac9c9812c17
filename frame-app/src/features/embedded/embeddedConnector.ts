/**
 * The embedded wallet as a connector (spec §3 type AUTH, §4, §6): the account lives in the secure-site;
 * this side answers what needs no key and routes the rest by an allowlist (docs/embedded-wallet.md §6). Reads go to
 * the chain's RPC; unknown methods are refused; unsafe ones are approved and signed inside the
 * secure-site. For eth_sendTransaction this side fills nonce, gas and fees, shows nothing of its own,
 * and broadcasts the raw transaction the secure-site signed.
 */
import * as Caip from '@doorway/shared/Caip'
import type * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import * as Ids from '@doorway/shared/Ids'
import * as Protocol from '@doorway/shared/Protocol'
import { base58, base64 } from '@scure/base'
import { type Connector, embeddedId } from '../../core/connectors/Connector.js'
import type { User } from './embedded.js'
import * as SmartRequests from './smartRequests.js'

/** Answered by the chain's RPC as they are: reading never needs the key. */
export const readMethods: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_sendRawTransaction',
  'eth_syncing',
  'net_version',
  'web3_clientVersion',
])
// The EIP-1193 ones: Solana's are signed through the connector's `solana` signer, never by request().
const unsafeMethods: ReadonlySet<string> = new Set(Protocol.embeddedUnsafeMethods.filter((m) => !m.startsWith('solana_')))

/** spec §7: requests to the secure frame for login time out at 30 s; reads at the usual 10 s. */
const rpcTimeoutMs = 10_000

export type Options = {
  secure: Channel.Channel<Protocol.SecureApi>
  account: Protocol.EmbeddedAccount
  /** The account's current chain and its configured network (for its RPC URL, and how the approval names and prices it). */
  chain(): { chainId: Caip.ChainId; rpcUrl?: string | undefined; network?: Protocol.SecureParams['sign']['network'] }
  /** How the approval names and prices another network (a Solana one). */
  network?(chainId: Caip.ChainId): Protocol.SecureParams['sign']['network']
  /** The dapp's networks: the only chains the account switches to. */
  chainIds(): readonly Caip.ChainId[]
  /** The dapp's origin, pinned at the handshake. */
  host: string
  /** Shows the approval (the secure iframe in the ApproveTransaction view) while `sign` runs. */
  approve<T>(op: string, sign: (signal: AbortSignal) => Promise<T>): Promise<T>
  /** spec §4: an unknown method is refused with an error toast. */
  refused(method: string): void
  /** The person's smart account (issue 25), when they chose it and the chain has smart accounts: the dapp sees its address. */
  smart?: SmartRequests.Smart | undefined
  /** The api's records of smart sessions, when the dapp turned features.smartSessions on (issue 25). */
  sessions?: SessionRecords | undefined
  /** One of the smart account's operations landed on chain (spec §3 smartAccountDeployed is asked again). */
  landed?(): void
  fetch?: typeof fetch
}

export type SessionRecords = {
  record(chainId: Caip.ChainId, address: string, delegation: unknown): Promise<void>
  revoke(address: string, pci: string, signature: string): Promise<void>
}

export function create(options: Options): Connector {
  const { secure, account, host } = options
  const rpc = rpcOf(options)

  /** The frame fills what the secure-site cannot know without the chain; it shows the result itself. */
  async function prepare(input: unknown): Promise<Record<string, string>> {
    const tx = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
    const from = typeof tx.from === 'string' ? tx.from : account.address
    if (from.toLowerCase() !== account.address.toLowerCase()) throw Errors.unauthorized()
    const hex = (x: unknown) => (typeof x === 'string' && /^0x[0-9a-f]+$/i.test(x) ? x : undefined)
    const base: Record<string, string> = { from: account.address }
    if (typeof tx.to === 'string') base.to = tx.to
    base.value = hex(tx.value) ?? '0x0'
    const data = typeof tx.data === 'string' ? tx.data : typeof tx.input === 'string' ? tx.input : undefined
    if (data) base.data = data
    const [nonce, gas, block, tip] = await Promise.all([
      hex(tx.nonce) ?? rpc('eth_getTransactionCount', [account.address, 'pending']),
      hex(tx.gas) ?? rpc('eth_estimateGas', [base]),
      rpc('eth_getBlockByNumber', ['latest', false]),
      hex(tx.maxPriorityFeePerGas) ?? hex(tx.gasPrice) ?? rpc('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00'),
    ])
    const baseFee = BigInt((block as { baseFeePerGas?: string } | null)?.baseFeePerGas ?? '0x0')
    const priority = BigInt(tip as string)
    // Wallets bid up to twice the base fee: room for two full blocks of increase.
    const maxFee = hex(tx.maxFeePerGas) ?? hex(tx.gasPrice) ?? `0x${(2n * baseFee + priority).toString(16)}`
    return {
      ...base,
      nonce: nonce as string,
      gas: gas as string,
      maxFeePerGas: maxFee,
      maxPriorityFeePerGas: `0x${priority.toString(16)}`,
      chainId: Caip.eip155Hex(options.chain().chainId),
    }
  }

  async function unsafe(method: (typeof Protocol.embeddedUnsafeMethods)[number], params: unknown[]): Promise<unknown> {
    const op = Ids.random()
    const { chainId, network } = options.chain()
    const prepared = method === 'eth_sendTransaction' ? [await prepare(params[0])] : params
    // The approval stays until the transaction is broadcast: a node refusing it is this request's error.
    return options.approve(op, async (signal) => {
      const { result } = await secure.call('sign', { op, method, params: prepared, chainId, host, ...(network && { network }) }, { signal, timeoutMs: approvalTimeoutMs })
      return method === 'eth_sendTransaction' ? rpc('eth_sendRawTransaction', [result]) : result
    })
  }

  const smart = options.smart
  const smartContext = smart && smartContextOf(options, smart)

  return {
    id: embeddedId,
    name: account.email,
    type: 'AUTH',
    namespaces: ['eip155', 'solana'],
    solana: solanaSigner(options),
    accountType: smart ? 'smartAccount' : 'eoa',
    ...(smart && { gasless: smart.sponsored }),
    ...(smartContext?.sessions && { revokeSession: (chainId: Caip.ChainId, delegation: unknown) => SmartRequests.revoke(smartContext, chainId, delegation) }),
    user: loginOf(account),
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [smart?.address ?? account.address]
      if (smartContext && SmartRequests.methods.has(method)) return SmartRequests.request(smartContext, method, list)
      if (method === 'eth_chainId') return Caip.eip155Hex(options.chain().chainId)
      // The modal's own network switch decides among the dapp's networks (host/requests.ts).
      if (method === 'wallet_switchEthereumChain') {
        const target = (list[0] as { chainId?: unknown } | undefined)?.chainId
        if (options.chainIds().some((id) => typeof target === 'string' && Caip.eip155Hex(id) === target.toLowerCase())) return null
        throw Errors.unrecognizedChain()
      }
      if (method === 'wallet_addEthereumChain') throw Errors.chainNotSupported()
      if (method === 'wallet_getPermissions' || method === 'wallet_requestPermissions') return [{ parentCapability: 'eth_accounts' }]
      if (readMethods.has(method)) return rpc(method, list)
      if (unsafeMethods.has(method)) return unsafe(method as (typeof Protocol.embeddedUnsafeMethods)[number], list)
      options.refused(method)
      throw Errors.unsupportedMethod(`Action not allowed: ${method}`)
    },
    disconnect: () => secure.call('signOut', {}).then(() => undefined),
  }
}

/** Reads from the current chain's RPC (docs/embedded-wallet.md §6): reading never needs the key. */
function rpcOf(options: Options) {
  const fetcher = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  return async (method: string, params: unknown[] = []): Promise<unknown> => {
    const { rpcUrl } = options.chain()
    if (!rpcUrl) throw Errors.chainDisconnected()
    const response = await fetcher(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(rpcTimeoutMs),
    })
    const json = (await response.json()) as { result?: unknown; error?: { code?: number; message?: string } }
    if (json.error) throw Errors.fromCode(typeof json.error.code === 'number' ? json.error.code : Errors.codes.default, json.error.message)
    return json.result
  }
}

/** The smart account's requests (smartRequests.ts), approved and signed in the secure-site as the account's. */
function smartContextOf(options: Options, smart: SmartRequests.Smart): SmartRequests.Context {
  const { secure, host } = options
  // The secure-site shows the smart account, derived from its own key and `environment`, never from here.
  type Hex = `0x${string}`
  const sign = <T>(
    method: Protocol.SecureParams['sign']['method'],
    params: unknown[],
    environment: Protocol.SecureParams['sign']['smartAccount'],
    then: (signature: Hex, revoke: Hex | undefined) => Promise<T>,
    on?: Caip.ChainId,
  ) => {
    const op = Ids.random()
    const current = options.chain()
    const chainId = on ?? current.chainId
    const network = chainId === current.chainId ? current.network : options.network?.(chainId)
    return options.approve(op, async (signal) => {
      const { result, revoke } = await secure.call('sign', { op, method, params, chainId, host, ...(network && { network }), smartAccount: environment }, { signal, timeoutMs: approvalTimeoutMs })
      return then(result as Hex, revoke as Hex | undefined)
    })
  }
  const records = options.sessions
  return {
    smart,
    chainId: () => options.chain().chainId,
    landed: () => options.landed?.(),
    signOperation: (operation, environment, send) => sign('eth_signUserOperation', [operation], environment, (signature) => send(signature)),
    signAsOwner: (method, params, environment) => sign(method, params, environment, async (signature) => signature),
    sessions: records && {
      sign: (delegation, environment, justification) => sign('eth_signDelegation', [delegation, ...(justification ? [{ justification }] : [])], environment, async (signature) => signature),
      record: (chainId, delegation) => records.record(chainId, smart.address, delegation),
      signRevoke: (chainId, operation, delegation, environment, then) =>
        sign(
          'doorway_revokeSession',
          [operation, delegation],
          environment,
          (signature, revoke) => {
            if (!revoke) throw new Error('The secure-site did not sign the revoke')
            return then(signature, revoke)
          },
          chainId,
        ),
      recordRevoke: (pci, signature) => records.revoke(smart.address, pci, signature),
    },
  }
}

/** spec §3 Account user: the login, and a social sign-in's name and picture (embedded.ts userOf reads them). */
function loginOf({ email, username, avatar }: Protocol.EmbeddedAccount): User {
  return { email, ...(username && { username }), ...(avatar && { avatar }) }
}

/** Solana requests are approved in the secure-site as EVM ones are; the wire bytes cross in base64. */
function solanaSigner(options: Options): NonNullable<Connector['solana']> {
  const { secure, host } = options
  const sign = (method: 'solana_signTransaction' | 'solana_signMessage', bytes: Uint8Array, chainId: Caip.ChainId): Promise<string> => {
    const op = Ids.random()
    const network = options.network?.(chainId)
    return options.approve(op, async (signal) => {
      const params = [base64.encode(bytes)]
      const { result } = await secure.call('sign', { op, method, params, chainId, host, ...(network && { network }) }, { signal, timeoutMs: approvalTimeoutMs })
      return result
    })
  }
  return {
    signTransaction: async (bytes, { chainId }) => base64.decode(await sign('solana_signTransaction', bytes, chainId)),
    signMessage: async (bytes, { chainId }) => base58.decode(await sign('solana_signMessage', bytes, chainId)),
  }
}

/** An approval waits on a person, like a wallet prompt; it still ends. */
export const approvalTimeoutMs = 300_000
