/**
 * The pairing shown by ConnectingWalletConnect (its URI, expiry and outcome), through the connector
 * that walletConnectClient.ts loads. Only that view imports it, so it loads with the view.
 *
 * spec §9 pairing: lifetime 4 minutes; a pairing within 10 s of its expiry is replaced by a fresh one;
 * the check runs every retry interval (1 s).
 */
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { walletConnectText } from '@doorway/shared/texts/walletConnect'
import { atom } from 'jotai'
import { type Wallet, rememberWalletAtom } from '../catalogue/catalogue.js'
import { relayTimeoutMs } from './walletConnect.js'
import { adoptSessionAtom, clientSlotAtom, loadWalletConnectAtom, providerErrorAtom } from './walletConnectClient.js'

export type Pairing =
  | { status: 'idle' }
  /** Reaching the relay and creating the pairing: the QR is not there yet. */
  | { status: 'loading' }
  | { status: 'ready'; uri: string; expiresAt: number }
  | { status: 'rejected' }
  | { status: 'failed'; message: string }

export const pairingAtom = atom<Pairing>({ status: 'idle' })
// The wallet the current pairing is for, so a refreshed pairing keeps it.
const pairingWalletAtom = atom<Wallet | undefined>(undefined)

/**
 * Starts a pairing (or replaces the current one): the view shows its URI as a QR and a link. The
 * wallet the person chose, if any, becomes a recent wallet once it connects.
 */
export const pairAtom = atom(null, async (get, set, wallet?: Wallet) => {
  const slot = get(clientSlotAtom)
  const attempt = ++slot.attempt
  const current = () => attempt === slot.attempt
  set(pairingWalletAtom, wallet)
  set(pairingAtom, { status: 'loading' })
  // Every request ends: a relay that never answers fails the attempt, with a retry that starts over.
  const timer = setTimeout(() => {
    if (!current() || get(pairingAtom).status !== 'loading') return
    slot.attempt++
    void slot.promise?.then((client) => client.abort()).catch(() => {})
    // A loaded client is kept (its relay connection retries by itself); a load still hanging is dropped.
    if (!slot.loaded) slot.promise = undefined
    set(pairingAtom, { status: 'failed', message: walletConnectText.relayTimeout })
  }, relayTimeoutMs)
  try {
    const client = await set(loadWalletConnectAtom)
    if (!current()) return
    // The namespace stays disconnected while a QR waits: nobody is connecting until a wallet answers.
    await client.pair((uri) => current() && set(pairingAtom, { status: 'ready', uri, expiresAt: Date.now() + Constants.pairingLifetimeMs }))
    if (!current()) return
    set(pairingAtom, { status: 'idle' })
    await set(adoptSessionAtom, { client, restored: false, wallet })
    if (wallet) set(rememberWalletAtom, wallet)
  } catch (error) {
    if (!current() || (error instanceof DOMException && error.name === 'AbortError')) return
    if (error instanceof Errors.DoorwayError && error.code === Errors.codes.userRejected) return set(pairingAtom, { status: 'rejected' })
    set(pairingAtom, { status: 'failed', message: error instanceof Error ? error.message : String(error) })
    set(providerErrorAtom, error)
  } finally {
    clearTimeout(timer)
  }
})
/** Leaving the view ends the pairing attempt: a stale QR must not connect anybody later. */
export const cancelPairingAtom = atom(null, (get, set) => {
  const slot = get(clientSlotAtom)
  slot.attempt++
  set(pairingAtom, { status: 'idle' })
  void slot.promise?.then((client) => client.abort()).catch(() => {})
})

/** spec §9: run every retry interval; a pairing within 10 s of expiry is replaced. */
export const refreshPairingAtom = atom(null, (get, set, now: number = Date.now()) => {
  const pairing = get(pairingAtom)
  if (pairing.status !== 'ready' || pairing.expiresAt - now > Constants.pairingExpiryMarginMs) return
  void get(clientSlotAtom).promise?.then((client) => client.abort())
  void set(pairAtom, get(pairingWalletAtom))
})
