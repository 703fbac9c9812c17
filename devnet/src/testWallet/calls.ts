/**
 * EIP-5792 (version 2.0.0) in the test wallet, as an EOA answers it, with the dev wallet's rules
 * (examples/dev-wallet/src/Calls.ts): no call is atomic, a batch is one transaction per call in nonce order.
 * The wallet approves every request by itself; its log line for a batch lists each call, as a prompt would.
 */
import * as Calls from '@doorway/examples/dev-wallet/Calls'
import { describeCalls } from '@doorway/examples/dev-wallet/Describe'
import { type Hex, createPublicClient, http, numberToHex } from 'viem'
import type * as TestWallet from '../testWallet.js'
import type * as Context from './context.js'

/** Sends one eip155 transaction (requests.ts's eth_sendTransaction), given its hex fields. */
export type SendTransaction = (chain: TestWallet.Chain, tx: Calls.Call & { nonce: Hex }) => Promise<Hex>

/** The wallet's chains, none atomic. The address was checked to be the account's. */
export function getCapabilities(context: Context.Context, chainIds: unknown) {
  return Calls.capabilities(chainIds, context.chains.map((chain) => chain.id))
}

/** Sends the batch on the wallet's current chain (5710 for another) and answers its id once all are broadcast. */
export async function sendCalls(context: Context.Context, params: unknown[], sendTransaction: SendTransaction) {
  const { account, batches, current: chain } = context
  const batch = Calls.readBatch(params, { chainId: chain.id, address: account.address })
  const id = batches.reserve(batch.id)
  try {
    context.log?.(`approved a batch on chain ${chain.id}: ${describeCalls(batch.calls)}`)
    const nonce = await client(chain).getTransactionCount({ address: account.address, blockTag: 'pending' })
    const sent = await Calls.send(batch.calls, (call, index) => sendTransaction(chain, { ...call, nonce: numberToHex(nonce + index) }))
    batches.settle({ id, chainId: chain.id, ...sent })
    return { id }
  } finally {
    batches.release(id)
  }
}

export function getCallsStatus(context: Context.Context, [id]: unknown[]) {
  const sent = context.batches.get(id)
  // The batch's own chain: the wallet may have switched since.
  const chain = context.chains.find((c) => c.id === sent.chainId)!
  const rpc = client(chain)
  return Calls.status(sent, (hash) => rpc.request({ method: 'eth_getTransactionReceipt', params: [hash] }) as Promise<Calls.Receipt | null>)
}

const client = (chain: TestWallet.Chain) => createPublicClient({ transport: http(chain.rpcUrl) })
