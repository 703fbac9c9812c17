/** Turns a dapp's eth_sendTransaction object into a signable EIP-1559 transaction, filled from the node. */
import { hexToBigInt, type Hex, type TransactionSerializable } from 'viem'
import * as Rpc from './Rpc.js'

export type Params = { from?: Hex; to?: Hex; value?: Hex; data?: Hex; input?: Hex; gas?: Hex; nonce?: Hex }
  & { maxFeePerGas?: Hex; maxPriorityFeePerGas?: Hex }

/**
 * The dapp's eth_sendTransaction object, or none when it sent something else. Its fields are taken as
 * given, as an extension forwards them: the node and viem's hex parsing refuse the malformed ones.
 */
export function readParams(value: unknown): Params {
  return value !== null && typeof value === 'object' ? (value as Params) : {}
}

export async function prepare(rpcUrl: string, chainId: number, tx: Params): Promise<TransactionSerializable> {
  const call = <T>(method: string, params: unknown[] = []) => Rpc.request<T>(rpcUrl, method, params)
  const data = tx.data ?? tx.input
  const [nonce, gas, block, tip] = await Promise.all([
    // 'pending' so queued transactions, approved one after another, get consecutive nonces
    tx.nonce ?? call<Hex>('eth_getTransactionCount', [tx.from, 'pending']),
    tx.gas ?? call<Hex>('eth_estimateGas', [{ from: tx.from, to: tx.to, value: tx.value, data }]),
    call<{ baseFeePerGas: Hex }>('eth_getBlockByNumber', ['latest', false]),
    tx.maxPriorityFeePerGas ?? call<Hex>('eth_maxPriorityFeePerGas'),
  ])
  const maxPriorityFeePerGas = hexToBigInt(tip)
  // Twice the base fee leaves room for several full blocks before inclusion, as ethers does.
  const maxFeePerGas = tx.maxFeePerGas
    ? hexToBigInt(tx.maxFeePerGas)
    : hexToBigInt(block.baseFeePerGas) * 2n + maxPriorityFeePerGas
  return {
    type: 'eip1559',
    chainId,
    nonce: Number(nonce),
    gas: hexToBigInt(gas),
    maxFeePerGas,
    maxPriorityFeePerGas,
    ...(tx.to && { to: tx.to }),
    ...(tx.value && { value: hexToBigInt(tx.value) }),
    ...(data && { data }),
  }
}
