/**
 * The frame's side of the host channel (DESIGN.md §4): pin the host origin, accept its port, expose
 * the flat frame API and report state and closes back to the host.
 */
import * as Channel from '@doorway/shared/Channel'
import { expose } from 'comlink'
import * as Errors from '@doorway/shared/Errors'
import type * as Logger from '@doorway/shared/Logger'
import { alerts } from '@doorway/shared/Messages'
import * as Protocol from '@doorway/shared/Protocol'
import type { createStore } from 'jotai'
import { flushSync } from 'react-dom'
import { raiseAlertAtom } from '../state/alerts.js'
import { configAtom, hostOriginAtom } from '../state/config.js'
import { closeListenerAtom, closeModalAtom, modalStateAtom, openModalAtom } from '../state/modal.js'
import { loadEmailLogin, loadSocialLogin } from '../views/Connect/Connect.js'
import { featureOf } from '../views/View.js'

type Store = ReturnType<typeof createStore>

export async function connect(options: { store: Store; log: Logger.Logger; parentOrigin: string }) {
  const { store, log, parentOrigin } = options
  const port = await Channel.accept({ parentOrigin, log })
  store.set(hostOriginAtom, parentOrigin)
  const state = () => store.get(modalStateAtom)

  const host = Channel.create({
    port,
    log,
    local: Protocol.frameApi,
    remote: Protocol.hostApi,
    expose,
    handlers: {
      init(config) {
        store.set(configAtom, config)
        // spec §8: a missing project id raises the configuration alert.
        if (!config.projectId) store.set(raiseAlertAtom, { key: 'projectIdNotConfigured', ...alerts.projectIdNotConfigured })
        // spec §1: embedded mode renders in place, open from the start.
        if (config.embedded) store.set(openModalAtom)
        if (config.features.email) void loadEmailLogin()
        if (config.features.socials) void loadSocialLogin()
        return state()
      },
      open({ view }) {
        const feature = view && featureOf(view)
        const config = store.get(configAtom)
        if (!config) throw Errors.notInitialized()
        if (feature && !config.features[feature]) throw Errors.featureOff(view, feature)
        // Render synchronously: open() is on the click-to-visible path.
        flushSync(() => store.set(openModalAtom, view && { view }))
        return state()
      },
      close() {
        // The host asked, so it already knows: do not echo a close back.
        store.set(closeModalAtom, { silent: true })
        return state()
      },
    },
  })

  function notifyClose(result: Protocol.OpenResult) {
    host.call('event', { type: 'close', result }).catch((error) => log.warn(error))
  }
  store.set(closeListenerAtom, { listener: notifyClose })
  store.sub(modalStateAtom, () => {
    host.call('event', { type: 'state', state: state() }).catch((error) => log.warn(error))
  })
  return host
}
