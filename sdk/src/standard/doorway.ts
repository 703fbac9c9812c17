/**
 * The modal as a Wallet Standard wallet named "Doorway" (issue 23, docs/sdk.md "Solana dapps"): a dapp's
 * own `@solana/wallet-adapter` (its StandardWalletAdapter) or `@solana/kit` app finds it as it finds
 * Phantom, with no glue code. Its account is the modal's Solana account, whichever wallet holds it (an
 * extension, WalletConnect or the email wallet); connecting opens the modal on Connect, and signing goes
 * through the frame's `solana_*` requests (frame-app/src/host/solanaRequests.ts) to that wallet.
 * It has no signAndSendTransaction: the adapter then signs and sends through the dapp's own RPC.
 */
import { solanaCluster } from '@doorway/shared/Caip'
import type { ModalState, Network } from '@doorway/shared/Protocol'
import type * as Frame from '../internal/frame.js'
import type { Modal } from '../types.js'
import type { Account, Wallet } from './serialise.js'

type Call = ReturnType<typeof Frame.connect>[1]
type Listener = (properties: { accounts: readonly Account[] }) => void
type Input = { account: Account }

const version = '1.0.0'
// A person approves a connection or a signature: as long as the SDK's other person-paced calls.
const personTimeoutMs = 300_000
const signing = ['solana:signTransaction', 'solana:signMessage'] as const
const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const icon =
  'data:image/svg+xml;base64,' +
  btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#2457d6"/><path d="M10 26V7.5L20 6v20.5z" fill="#fff"/></svg>')

/** A Solana address's 32 bytes (the frame checked it is base58; leading 1s are leading zeros). */
export function publicKey(address: string): Uint8Array {
  let n = 0n
  for (const c of address) n = n * 58n + BigInt(alphabet.indexOf(c))
  const bytes = new Uint8Array(32)
  for (let i = 31; i >= 0; i--, n >>= 8n) bytes[i] = Number(n & 255n)
  return bytes
}

/**
 * The wallet for the dapp's `networks` (CAIP-2), and `update`, which takes each modal state: its Solana
 * account (CAIP-10 in `accounts`) becomes the wallet's, and a change is told to `standard:events` listeners.
 */
export function create(call: Call, networks: readonly string[]): readonly [Wallet, (state: ModalState) => void] {
  let accounts: Account[] = []
  const listeners = new Set<Listener>()
  const request = (method: string, params?: Record<string, unknown>) => call('request', { method, params }, { timeoutMs: personTimeoutMs })
  const update = (caipAddress?: string) => {
    const [, reference, address] = caipAddress?.split(':') ?? []
    if (address === accounts[0]?.address) return
    accounts = address ? [{ address, publicKey: publicKey(address), chains: [solanaCluster(`solana:${reference}`)], features: signing }] : []
    for (const listener of listeners) listener({ accounts })
  }
  const ours = (account: Account) => {
    if (account?.address !== accounts[0]?.address) throw new Error('Not the connected account')
    return account.address
  }
  const wallet: Wallet = {
    version,
    name: 'Doorway',
    icon,
    chains: [...new Set(networks.filter((id) => id.startsWith('solana:')).map(solanaCluster))],
    get accounts() {
      return accounts
    },
    features: {
      'standard:connect': {
        version,
        connect: async ({ silent }: { silent?: boolean } = {}) => {
          if (!accounts.length && !silent) update(((await request('solana_requestAccounts')) as string[])[0])
          return { accounts }
        },
      },
      // The dapp stops using the account; the modal stays connected (its own Disconnect ends that).
      'standard:disconnect': { version, disconnect: async () => void (accounts.length && ((accounts = []), listeners.forEach((l) => l({ accounts })))) },
      'standard:events': { version, on: (_event: 'change', listener: Listener) => (listeners.add(listener), () => void listeners.delete(listener)) },
      'solana:signTransaction': {
        version,
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: (...inputs: (Input & { transaction: Uint8Array })[]) =>
          sequence(inputs, async ({ account, transaction }) => ({
            signedTransaction: ((await request('solana_signTransaction', { transaction, pubkey: ours(account) })) as { transaction: Uint8Array }).transaction,
          })),
      },
      'solana:signMessage': {
        version,
        signMessage: (...inputs: (Input & { message: Uint8Array })[]) =>
          sequence(inputs, async ({ account, message }) => ({
            signedMessage: message,
            signature: ((await request('solana_signMessage', { message, pubkey: ours(account) })) as { signature: Uint8Array }).signature,
          })),
      },
    },
  }
  return [wallet, (state) => update(state.accounts?.find((id) => id.startsWith('solana:')))]
}

// One prompt at a time: a batch is signed input by input, in order.
async function sequence<I, O>(inputs: I[], each: (input: I) => Promise<O>): Promise<O[]> {
  const outputs: O[] = []
  for (const input of inputs) outputs.push(await each(input))
  return outputs
}

/**
 * Makes the wallet for the dapp's `networks`, keeps its account the modal's and registers it; `own`
 * learns the wallet first, so that the chunk's own discovery leaves it out.
 */
export function start(call: Call, networks: readonly Network[], modal: Pick<Modal, 'getState' | 'subscribe'>, signal: AbortSignal, own: (wallet: Wallet) => void): void {
  const [wallet, update] = create(
    call,
    networks.map((n) => n.caipNetworkId),
  )
  own(wallet)
  update(modal.getState())
  signal.addEventListener('abort', modal.subscribe('state', update))
  announce(wallet, signal)
}

/**
 * Registers the wallet with the page's Wallet Standard apps: those already listening (our register event)
 * and those that start later (their app-ready event). `signal` (destroy()) unregisters it everywhere.
 */
export function announce(wallet: Wallet, signal: AbortSignal): void {
  type Api = { register(wallet: Wallet): () => void }
  const register = (api: Api) => {
    const off = api.register(wallet)
    signal.addEventListener('abort', off)
  }
  window.addEventListener('wallet-standard:app-ready', (event) => register((event as CustomEvent<Api>).detail), { signal })
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }))
}
