/**
 * The dapp's Solana requests (issue 23, docs/sdk.md "Solana dapps"): what the SDK's Doorway wallet (a
 * Wallet Standard wallet on the host page, sdk/src/standard/doorway.ts) asks of the modal's Solana
 * account, whichever wallet holds it (an extension, WalletConnect or the email wallet). Loaded on the
 * first `solana_*` request only. Bytes cross as Uint8Array, as Wallet Standard hands them over:
 * - `solana_requestAccounts` → [CAIP-10 account]; with no Solana account it opens Connect on the dapp's Solana
 *   network and waits for one (closing the modal rejects with 4001);
 * - `solana_signTransaction { transaction, pubkey }` → `{ transaction }`, the signed wire bytes;
 * - `solana_signMessage { message, pubkey }` → `{ signature }`, 64 bytes of ed25519.
 * `pubkey` must be the connected account (4100 otherwise); anything else is -32602 or 4200.
 */
import * as Errors from '@doorway/shared/Errors'
import * as Protocol from '@doorway/shared/Protocol'
import * as S from '@doorway/shared/Schema'
import type { createStore } from 'jotai'
import { configAtom } from '../core/config.js'
import { accountsAtom, namespaceOf, toProtocol } from '../core/connection.js'
import { switchNetworkAtom } from '../core/network.js'

type Store = ReturnType<typeof createStore>
type Connect = (store: Store, namespace: 'solana') => Promise<string[]>

// A transaction's wire form is at most 1232 bytes (the packet size); a message is the dapp's text.
const pubkey = S.string({ min: 32, max: 44, pattern: /^[1-9A-HJ-NP-Za-km-z]+$/ })
const params = {
  solana_signTransaction: S.object({ transaction: Protocol.bytes(1232), pubkey }),
  solana_signMessage: S.object({ message: Protocol.bytes(65_536), pubkey }),
}

export async function request(store: Store, method: string, input: unknown, connect: Connect): Promise<unknown> {
  const account = store.get(accountsAtom).solana
  if (method === 'solana_requestAccounts') {
    if (!account) await connectSolana(store, connect)
    return [toProtocol(store.get(accountsAtom).solana!).caipAddress]
  }
  if (method !== 'solana_signTransaction' && method !== 'solana_signMessage') throw Errors.unsupportedMethod()
  if (!account) throw Errors.unauthorized()
  const signer = account.connector.solana
  if (!signer) throw Errors.unsupportedMethod()
  if (method === 'solana_signTransaction') {
    const { transaction, pubkey } = check(params.solana_signTransaction, input)
    if (pubkey !== account.address) throw Errors.unauthorized()
    return { transaction: await signer.signTransaction(transaction, account) }
  }
  const { message, pubkey } = check(params.solana_signMessage, input)
  if (pubkey !== account.address) throw Errors.unauthorized()
  return { signature: await signer.signMessage(message, account) }
}

function check<T>(schema: S.Schema<T>, input: unknown): T {
  if (!schema(input)) throw Errors.invalidParams()
  return input
}

/** The dapp's Solana network (its default, else its first) becomes the one in use, then Connect offers its wallets. */
async function connectSolana(store: Store, connect: Connect): Promise<string[]> {
  const config = store.get(configAtom)
  const networks = config?.networks.filter((n) => namespaceOf(n.caipNetworkId) === 'solana') ?? []
  const network = networks.find((n) => n.caipNetworkId === config?.defaultNetwork) ?? networks[0]
  if (!network) throw Errors.chainNotSupported()
  await store.set(switchNetworkAtom, network)
  return connect(store, 'solana')
}
