/**
 * The Wallet Standard host chunk (issue 23, docs/architecture.md §4): Solana extension wallets stay on
 * the host page, as EIP-6963 ones do. The SDK fetches this chunk only when the dapp has a solana
 * network (Modal.ts), so the 7 KB SDK carries only the loader. Discovery is hand-rolled, not
 * @wallet-standard/app, for bytes. A wallet that registered before this loaded answers app-ready at
 * once, so loading late loses none.
 */
import * as Errors from '@doorway/shared/Errors'
import * as Ids from '@doorway/shared/Ids'
import type * as Logger from '@doorway/shared/Logger'
import * as Protocol from '@doorway/shared/Protocol'
import type * as S from '@doorway/shared/Schema'
import type * as Frame from '../internal/frame.js'
import type { Modal } from '../types.js'
import * as Serialise from './serialise.js'

export type { Wallet } from './serialise.js'
type Wallet = Serialise.Wallet
type Call = ReturnType<typeof Frame.connect>[1]
export type Request = (params: S.Infer<(typeof Protocol.hostParams)['standardRequest']>) => Promise<unknown>

/** A wallet the frame can connect and sign a Solana transaction with. */
const usable = ({ chains, features }: Wallet) =>
  chains.some((chain) => chain.startsWith('solana:')) &&
  !!features['standard:connect'] &&
  !!(features['solana:signTransaction'] || features['solana:signAndSendTransaction'])

/**
 * Finds the page's wallets and tells the frame each time the list changes (and once now); answers the
 * frame's `standardRequest` with what it returns. Registers the modal itself as the Doorway wallet
 * (doorway.ts), which it never offers back to the frame. `signal` (destroy()) removes every listener.
 */
export function start(
  call: Call,
  log: Pick<Logger.Logger, 'warn'>,
  signal: AbortSignal,
  networks: readonly Protocol.Network[],
  modal: Pick<Modal, 'getState' | 'subscribe'>,
): Request {
  let own: Wallet | undefined
  // A random 128-bit id per wallet object, in the order they registered.
  const ids = new Map<Wallet, string>()
  // Answers to our app-ready arrive at once and go out with the first list; later ones are news.
  let late = false
  const send = () => late && void call('standardWallets', { wallets: list() }).catch(log.warn)
  const list = () =>
    [...ids].flatMap(([wallet, id]) => {
      const info = serialise(wallet, id)
      return info && Protocol.standardWallet(info) ? [info] : (log.warn('ignored wallet', id), [])
    })
  const register = (...wallets: Wallet[]) => {
    const added = wallets.filter((wallet) => wallet !== own && !ids.has(wallet) && usable(wallet))
    for (const wallet of added) ids.set(wallet, Ids.random())
    if (added.length) send()
    return () => {
      for (const wallet of added) ids.delete(wallet)
      if (added.length) send()
    }
  }
  window.addEventListener(
    'wallet-standard:register-wallet',
    (event) => ((event as CustomEvent).detail as (api: { register: typeof register }) => void)({ register }),
    { signal },
  )
  window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: { register } }))
  late = true
  send()
  // The Doorway wallet is a chunk of its own (sdk/vite.config.ts), fetched beside this one.
  import('./doorway.js')
    .then((Doorway) => Doorway.start(call, networks, modal, signal, (wallet) => (own = wallet)))
    .catch(log.warn)
  return relay(ids, call, log, signal)
}

// A wallet whose getters throw is left out, like one that fails the schema.
function serialise(wallet: Wallet, id: string) {
  try {
    return Serialise.wallet(id, wallet)
  } catch {
    return undefined
  }
}

/**
 * The frame's calls to a wallet: only the allowlisted features it has, with an account it names by
 * address swapped for the wallet's own account object (wallets compare those objects). After a
 * wallet's first connect, its account changes are forwarded.
 */
function relay(ids: Map<Wallet, string>, call: Call, log: Pick<Logger.Logger, 'warn'>, signal: AbortSignal): Request {
  const listening = new Set<Wallet>()
  const forward = (wallet: Wallet, id: string) => {
    const accounts = wallet.accounts.map(Serialise.account)
    if (accounts.every(Protocol.standardAccount)) void call('standardEvent', { id, accounts }).catch(log.warn)
    else log.warn('ignored accounts of', id)
  }
  return async ({ id, feature, input }) => {
    const wallet = [...ids].find(([, known]) => known === id)?.[0]
    if (!wallet) throw Errors.unknownWallet()
    // `standard:connect` → connect, `solana:signTransaction` → signTransaction…
    const method = feature.split(':')[1]!
    const target = wallet.features[feature] as Record<string, (...inputs: unknown[]) => unknown> | undefined
    // The entry admits any feature's name by its form; this is the allowlist (Protocol hostParams).
    if (!(Protocol.standardFeatures as readonly string[]).includes(feature) || typeof target?.[method] !== 'function') throw Errors.unsupportedMethod()
    const account = wallet.accounts.find((a) => a.address === input.account)
    if ('account' in input && !account) throw Errors.unauthorized()
    const result = await target[method]!(account ? { ...input, account } : input)
    // solana:sign* take and answer one array entry per input: one here.
    const output = Serialise.output(feature.startsWith('solana:') ? (result as unknown[])[0] : result)
    if (feature === 'standard:connect' && !listening.has(wallet)) {
      listening.add(wallet)
      const events = wallet.features['standard:events'] as { on?(event: 'change', listener: (properties: { accounts?: unknown }) => void): () => void } | undefined
      const off = events?.on?.('change', (properties) => properties.accounts && forward(wallet, id))
      if (off) signal.addEventListener('abort', off)
    }
    return output
  }
}
