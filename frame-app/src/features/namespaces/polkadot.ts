/**
 * The Polkadot runtime of the namespace registry (registry.ts, issue 23): a lazy chunk, fetched when a
 * Polkadot account signs in. Polkadot only receives here (no transfer).
 */
import type { Account } from '../../core/connection.js'
import type { Runtime } from './registry.js'

/** Over WalletConnect the wallet signs the text as polkadot.js signRaw does (sr25519) and answers hex. */
async function signIn(account: Account, message: string): Promise<string> {
  const answer = await account.connector.request({ method: 'polkadot_signMessage', params: { address: account.address, message } }, account.chainId)
  const signature = (answer as { signature?: unknown } | null)?.signature
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{128,130}$/.test(signature)) throw new Error('The wallet answered without a signature')
  return signature
}

export const runtime: Runtime = { signIn }
