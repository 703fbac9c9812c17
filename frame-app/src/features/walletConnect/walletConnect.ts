/**
 * WalletConnect from the first chunk: only warming it once the frame is idle and restoring a stored
 * session, both through walletConnectClient.ts, a chunk of its own that loads the connector chunk and
 * follows the session. The pairing that ConnectingWalletConnect shows is walletConnectPairing.ts.
 */
import { atom } from 'jotai'
import { walletConnectId } from '../../core/connectors/Connector.js'
import { accountAtom, activeNamespaceAtom, forgetAtom, statusAtom, storedConnectorId } from '../../core/connection.js'

const client = () => import('./walletConnectClient.js')

/** Loads the chunks and reaches the relay, so the QR appears fast (issue 5); wire.ts calls it when idle. */
export const warmWalletConnectAtom = atom(null, (_get, set) => void client().then((Client) => set(Client.loadWalletConnectAtom)).catch(() => {}))

/** How long reaching the relay (for a pairing, or to restore a session) may take before giving up. */
export const relayTimeoutMs = 15_000

/** A stored WalletConnect connection comes back from the frame's storage, without a new pairing. */
export const restoreWalletConnectAtom = atom(null, async (get, set) => {
  if (storedConnectorId() !== walletConnectId || get(accountAtom)) return
  const namespace = get(activeNamespaceAtom)
  set(statusAtom, (s) => ({ ...s, [namespace]: 'connecting' }))
  // spec §4: connecting is then synced. A relay that does not answer leaves the stored session for
  // the next load rather than forgetting it.
  const timer = setTimeout(() => {
    if (!get(accountAtom)) set(statusAtom, (s) => ({ ...s, [namespace]: 'disconnected' }))
  }, relayTimeoutMs)
  try {
    await set((await client()).restoreSessionAtom)
  } catch {
    set(forgetAtom)
  } finally {
    clearTimeout(timer)
  }
})
