/**
 * Analytics (spec §7 POST /e), opt-in: nothing is sent unless the dapp sets features.analytics
 * (docs/architecture.md §10) and the project has it enabled (GET /getAnalyticsConfig, asked once). An HTTP 403
 * means the host origin is not on the project's allowlist: the 'Invalid App Configuration' alert,
 * shown once (spec §8).
 */
import { alerts, format } from '@doorway/shared/Texts'
import { atom, type createStore } from 'jotai'
import { ApiError } from '../../api/client.js'
import { raiseAlertAtom } from '../../core/alerts.js'
import { apiAtom } from '../../core/api.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { openAtom } from '../../core/modal.js'

export type Event = 'MODAL_OPEN' | 'MODAL_CLOSE' | 'CONNECT_SUCCESS' | 'DISCONNECT_SUCCESS' | 'SWITCH_NETWORK' | 'SEND_SUCCESS' | 'SEND_ERROR'

// Per store: the project's answer, asked at most once.
const enabledAtom = atom(() => ({ answer: undefined as Promise<boolean> | undefined }))

export const trackAtom = atom(null, async (get, set, event: Event, properties: Record<string, unknown> = {}) => {
  const origin = get(hostOriginAtom)
  if (!get(configAtom)?.features.analytics || !origin) return
  const api = get(apiAtom)
  const cache = get(enabledAtom)
  cache.answer ??= api.analyticsConfig().then((c) => c.isAnalyticsEnabled, () => false)
  if (!(await cache.answer)) return
  const address = get(accountAtom)?.address
  const props = { type: 'track', event, properties, ...(address && { address }) }
  try {
    await api.sendEvent({ eventId: crypto.randomUUID(), url: origin, domain: origin, timestamp: Date.now(), props })
  } catch (error) {
    if (error instanceof ApiError && error.status === 403)
      set(raiseAlertAtom, {
        key: 'invalidAppConfiguration',
        title: alerts.invalidAppConfiguration.title,
        message: format(alerts.invalidAppConfiguration.message, { origin }),
      })
  }
})

/** The events analytics reports, taken from state changes rather than sprinkled through views (wired in src/wire.ts). */
export function wireAnalytics(store: ReturnType<typeof createStore>) {
  store.sub(openAtom, () => void store.set(trackAtom, store.get(openAtom) ? 'MODAL_OPEN' : 'MODAL_CLOSE'))
  let previous = store.get(accountAtom)
  store.sub(accountAtom, () => {
    const account = store.get(accountAtom)
    if (account && !previous) void store.set(trackAtom, 'CONNECT_SUCCESS', { name: account.connector.name })
    else if (!account && previous) void store.set(trackAtom, 'DISCONNECT_SUCCESS')
    else if (account && previous && account.chainId !== previous.chainId) void store.set(trackAtom, 'SWITCH_NETWORK', { network: account.chainId })
    previous = account
  })
}
