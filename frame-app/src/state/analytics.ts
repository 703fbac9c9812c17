/**
 * Analytics (spec §7 POST /e), opt-in: nothing is sent unless the dapp sets features.analytics
 * (DESIGN.md §10) and the project has it enabled (GET /getAnalyticsConfig, asked once). An HTTP 403
 * means the host origin is not on the project's allowlist: the 'Invalid App Configuration' alert,
 * shown once (spec §8).
 */
import { alerts, format } from '@doorway/shared/Texts'
import { atom } from 'jotai'
import { ApiError } from '../api/client.js'
import { raiseAlertAtom } from './alerts.js'
import { apiAtom } from './api.js'
import { configAtom, hostOriginAtom } from './config.js'
import { accountAtom } from './connection.js'

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
