/**
 * spec §4 sendToken, the Solana path: build the transfer (SOL, or an SPL token opening the receiver's
 * account when it has none), have the wallet sign its wire bytes, broadcast, and follow it by polling
 * (never a websocket). The Send flow (features/send/send.ts) loads this chunk only for a Solana network.
 */
import './internal/buffer.js'
import type { Balance } from '../../api/client.js'
import type { Account } from '../../core/connection.js'
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import * as SolanaConfirm from './SolanaConfirm.js'
import * as SolanaRpc from './SolanaRpc.js'
import * as SolanaTransfer from './SolanaTransfer.js'

export type Transfer = { account: Account; rpcUrl: string | undefined; token: Balance; units: bigint; receiver: string }

/** The unsigned transaction for this transfer, with its fee and the rent of an account it opens. */
export async function build({ account, rpcUrl, token, units, receiver }: Transfer): Promise<SolanaTransfer.Built & { rpc: SolanaRpc.Rpc }> {
  if (!rpcUrl) throw Errors.chainDisconnected()
  const rpc = SolanaRpc.create(rpcUrl)
  if (!token.address) return { rpc, ...(await SolanaTransfer.sol({ rpc, from: account.address, to: receiver, lamports: units })) }
  const mint = Caip.parseAccountId(token.address).address
  const decimals = Number(token.quantity.decimals)
  return { rpc, ...(await SolanaTransfer.spl({ rpc, from: account.address, to: receiver, mint, amount: units, decimals, symbol: token.symbol })) }
}

/** Signs through the account's wallet and broadcasts; resolves with the signature and how to follow it. */
export async function send(transfer: Transfer) {
  const signer = transfer.account.connector.solana
  if (!signer) throw Errors.unsupportedMethod()
  const built = await build(transfer)
  const signed = await signer.signTransaction(built.bytes, transfer.account)
  const signature = await SolanaConfirm.broadcast(built.rpc, signed)
  const confirmed = () => SolanaConfirm.confirm(built.rpc, signature, built.lastValidBlockHeight)
  return { signature, confirmed }
}
