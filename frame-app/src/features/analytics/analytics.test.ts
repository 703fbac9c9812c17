import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test, vi } from 'vitest'
import { ApiError } from '../../api/client.js'
import { alertAtom, dismissAlertAtom } from '../../core/alerts.js'
import { trackAtom } from './analytics.js'
import { apiAtom } from '../../core/api.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'

function setup(analytics: boolean, send: () => Promise<unknown> = () => Promise.resolve({ success: true }), enabled = true) {
  const store = createStore()
  store.set(configAtom, { features: { analytics }, projectId: 'p', sdkType: 'appkit', sdkVersion: 'v' } as unknown as Protocol.Config)
  store.set(hostOriginAtom, 'http://localhost:5173')
  const api = store.get(apiAtom)
  const config = vi.spyOn(api, 'analyticsConfig').mockResolvedValue({ isAnalyticsEnabled: enabled })
  const sendEvent = vi.spyOn(api, 'sendEvent').mockImplementation(send)
  return { store, sendEvent, config }
}

describe('trackAtom', () => {
  test('behavior: off by default in the dapp: nothing is sent, nothing is asked (docs/architecture.md §10)', async () => {
    const { store, sendEvent, config } = setup(false)
    await store.set(trackAtom, 'MODAL_OPEN')
    expect(sendEvent).not.toHaveBeenCalled()
    expect(config).not.toHaveBeenCalled()
  })

  test('behavior: on, sends the event with the pinned host origin; the project answer is asked once', async () => {
    const { store, sendEvent, config } = setup(true)
    await store.set(trackAtom, 'MODAL_OPEN')
    await store.set(trackAtom, 'MODAL_CLOSE')
    expect(config).toHaveBeenCalledOnce()
    expect(sendEvent.mock.calls.map(([e]) => [e.domain, e.url, (e.props as { event: string }).event])).toEqual([
      ['http://localhost:5173', 'http://localhost:5173', 'MODAL_OPEN'],
      ['http://localhost:5173', 'http://localhost:5173', 'MODAL_CLOSE'],
    ])
  })

  test('behavior: a project with analytics disabled gets nothing', async () => {
    const { store, sendEvent } = setup(true, undefined, false)
    await store.set(trackAtom, 'MODAL_OPEN')
    expect(sendEvent).not.toHaveBeenCalled()
  })

  test("error: HTTP 403 raises 'Invalid App Configuration' once (spec §8)", async () => {
    const { store } = setup(true, () => Promise.reject(new ApiError(403, 'forbidden')))
    await store.set(trackAtom, 'MODAL_OPEN')
    expect(store.get(alertAtom)).toEqual({
      key: 'invalidAppConfiguration',
      title: 'Invalid App Configuration',
      message: 'Origin http://localhost:5173 not found on Allowlist - update configuration',
    })
    store.set(dismissAlertAtom)
    await store.set(trackAtom, 'MODAL_CLOSE')
    expect(store.get(alertAtom)).toBeNull()
  })
})
