/**
 * A HybridDeleGator smart account on one chain (issue 25, docs/embedded-wallet.md §1), owned by a key
 * this module never sees (SmartAccount.ts), whose transactions are ERC-4337 user operations: each is built
 * through viem's bundler client (nonce, gas, the ERC-7677 paymaster's data when the network has one),
 * signed by its owner elsewhere, and sent. The embedded wallet's account (the frame's lazy chunk, whose
 * operations the secure-site shows and signs), the bench, and the wagmi demo's session account use it.
 */
import * as SmartAccount from './SmartAccount.js'
import { type Address, createPublicClient, type Hex, http, serializeErc6492Signature } from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint07Abi,
  formatUserOperationRequest,
  toSmartAccount,
  type UserOperation,
  type UserOperationReceipt,
} from 'viem/account-abstraction'

/** Where a network's operations go, as the api configures it (GET /v1/smart-accounts/{chainId}). */
export type Network = {
  bundlerUrl: string
  paymasterUrl?: string | undefined
  environment: SmartAccount.Environment
  /** The framework's caveat enforcers by name, for the delegations of smart sessions (the secure-site checks them against its own). */
  enforcers: Record<string, Address>
}

export type Options = {
  /** The wallet's own (EOA) address: the account's owner. */
  owner: Address
  chainId: number
  rpcUrl: string
  network: Network
}

export type Call = { to: Address; value?: bigint | undefined; data?: Hex | undefined }

/** Every call to the chain, the bundler and the paymaster ends (the bundler's own inclusion wait is longer). */
const requestTimeoutMs = 10_000
/** A sponsored operation lands in a block or two; a busy chain gets a minute before the person is told. */
const receiptTimeoutMs = 60_000


export async function create(options: Options) {
  const { owner, chainId, network } = options
  const { address, factory, factoryData } = SmartAccount.counterfactual(owner, network.environment)
  const chain = { id: chainId, name: `eip155:${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [options.rpcUrl] } } }
  const client = createPublicClient({ chain, transport: http(options.rpcUrl, { timeout: requestTimeoutMs, retryCount: 0 }) })
  const account = await toSmartAccount({
    client,
    entryPoint: { abi: entryPoint07Abi, address: network.environment.EntryPoint, version: '0.7' },
    getAddress: async () => address,
    encodeCalls: async (calls) => SmartAccount.encodeCalls(calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))),
    decodeCalls: async (data) => SmartAccount.decodeCalls(data),
    getFactoryArgs: async () => ({ factory, factoryData }),
    getStubSignature: async () => SmartAccount.stubSignature,
    // Messages are signed in the secure-site as the dapp asked them (the connector's personal_sign); `wrap` adds ERC-6492.
    signMessage: () => Promise.reject(new Error('Sign messages through the secure-site')),
    signTypedData: () => Promise.reject(new Error('Sign typed data through the secure-site')),
    // Signed by the secure-site between `prepare` and `send`, never from here.
    signUserOperation: () => Promise.reject(new Error('Operations are signed in the secure-site')),
  })
  const paymaster = network.paymasterUrl ? createPaymasterClient({ transport: http(network.paymasterUrl, { timeout: requestTimeoutMs, retryCount: 0 }) }) : undefined
  const bundler = createBundlerClient({
    client,
    account,
    transport: http(network.bundlerUrl, { timeout: requestTimeoutMs, retryCount: 0 }),
    ...(paymaster && { paymaster }),
    pollingInterval: 250,
    userOperation: {
      // viem's default bids twice the chain's suggested tip. Where the bundles are the only transactions
      // (a quiet chain, the devnet) the next suggestion is that bid, and the tip doubles with every
      // operation until the paymaster's deposit cannot cover one. The buffer goes on the fee cap only.
      async estimateFeesPerGas() {
        const fees = await client.estimateFeesPerGas({ type: 'eip1559' })
        return { maxFeePerGas: 2n * fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
      },
    },
  })

  return {
    address,
    /** spec §5: a paymaster pays this account's fees, so it is never short of gas. */
    sponsored: paymaster !== undefined,
    /** What deploys the account (ERC-7715's `dependencies`: a session's redeemer deploys it first, while it is undeployed). */
    factoryArgs: { factory, factoryData },
    /** The chain's time (its latest block's, unix seconds): what its contracts compare a session's start and expiry with. */
    now: async (): Promise<number> => Number((await client.getBlock({ blockTag: 'latest' })).timestamp),
    /** Whether the account exists on chain yet (spec §3 smartAccountDeployed): its first operation deploys it. */
    deployed: () => account.isDeployed(),
    /** One operation for `calls`, all or none: nonce, gas, and the paymaster's data, unsigned. */
    prepare: (calls: readonly Call[]): Promise<UserOperation> =>
      bundler.prepareUserOperation({ calls: calls.map((call) => ({ to: call.to, value: call.value ?? 0n, data: call.data ?? '0x' })) }) as Promise<UserOperation>,
    /** What the secure-site signs: the operation's ERC-7769 fields as JSON-RPC hex, nothing viem carries besides. */
    json: (operation: UserOperation): Record<string, unknown> => {
      const json = formatUserOperationRequest(operation) as Record<string, unknown>
      return Object.fromEntries(SmartAccount.operationFields.filter((key) => json[key] !== undefined).map((key) => [key, json[key]]))
    },
    /** Sends the signed operation; its hash. */
    send: (operation: UserOperation, signature: Hex): Promise<Hex> =>
      bundler.request({ method: 'eth_sendUserOperation', params: [formatUserOperationRequest({ ...operation, signature }), network.environment.EntryPoint] }, { retryCount: 0 }),
    /** Waits for the operation's inclusion. */
    wait: (hash: Hex, pollingInterval?: number): Promise<UserOperationReceipt> =>
      bundler.waitForUserOperationReceipt({ hash, timeout: receiptTimeoutMs, ...(pollingInterval !== undefined && { pollingInterval }) }),
    /** The operation's receipt, or null while it is pending. */
    receipt: (hash: Hex): Promise<UserOperationReceipt | null> => bundler.getUserOperationReceipt({ hash }).catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error))),
    /** The owner's signature as the account's: ERC-6492 while it is undeployed, so verifiers deploy it to check (ERC-1271). */
    wrap: async (signature: Hex): Promise<Hex> => ((await account.isDeployed()) ? signature : serializeErc6492Signature({ address: factory, data: factoryData, signature })),
  }
}
export type Account = Awaited<ReturnType<typeof create>>

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'UserOperationReceiptNotFoundError'
}
