import type * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { unsupportedText } from '@doorway/shared/texts/unsupported'
import { useAtomValue, useStore } from 'jotai'
import { useEffect, useState } from 'react'
import { configAtom } from '../core/config.js'
import { type Account, accountAtom } from '../core/connection.js'
import { switchNetworkAtom } from '../core/network.js'

export type PrefillState = { state: 'idle' | 'done' } | { state: 'working'; switching?: string } | { state: 'failed'; message: string }

/**
 * open()'s arguments applied once (Send, Swap): first the network they name, switched through the
 * wallet with its name on screen; then `apply` on the account's chain, which answers the next state, or
 * undefined while what it needs is still on its way (it runs again when `deps` change).
 */
export function usePrefill<P extends { chainId?: string | undefined }>(
  prefill: P | undefined,
  apply: (prefill: P, account: Account) => PrefillState | undefined,
  deps: readonly unknown[],
): PrefillState {
  const store = useStore()
  const account = useAtomValue(accountAtom)
  const config = useAtomValue(configAtom)
  const [state, setState] = useState<PrefillState>(prefill ? { state: 'working' } : { state: 'idle' })
  useEffect(() => {
    if (!prefill || state.state !== 'working' || !account) return
    const network = config?.networks.find((n) => n.caipNetworkId === prefill.chainId)
    if (network && account.chainId !== network.caipNetworkId) {
      if (state.switching) return
      setState({ state: 'working', switching: format(unsupportedText.switchTo, { network: network.name }) })
      store.set(switchNetworkAtom, network).catch((error: Errors.DoorwayError) => setState({ state: 'failed', message: error.message }))
      return
    }
    const next = apply(prefill, account)
    if (next) setState(next)
    // `apply` reads what `deps` name.
  }, [prefill, state, account, config, store, ...deps])
  return state
}
