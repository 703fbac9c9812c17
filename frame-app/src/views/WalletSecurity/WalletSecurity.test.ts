/**
 * The WalletSecurity view's session with the secure-site (docs/embedded-wallet.md §10): the screen runs
 * there under an op, with the pinned host; this side pops the view when the person is done, aborts the
 * op when they leave, and says a refusal in a toast.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import * as Protocol from '@doorway/shared/Protocol'
import { expose } from 'comlink'
import { createStore } from 'jotai'
import { describe, expect, test, vi } from 'vitest'
import { hostOriginAtom } from '../../core/config.js'
import { pushAtom, resetAtom, routeAtom } from '../../core/router.js'
import { toastAtom } from '../../core/toasts.js'
import { manageWalletAtom } from '../../features/embedded/embeddedSession.js'
import { secureStatusAtom } from '../../features/embedded/secure.js'

/** A store on Account → WalletSecurity whose secure frame answers `manageWallet` over a real channel. */
function setup(manageWallet: Channel.Handlers<Protocol.SecureApi>['manageWallet']) {
  const { port1, port2 } = new MessageChannel()
  const log = { warn() {}, debug() {} }
  const aborted: string[] = []
  const handlers = { manageWallet, abort: ({ op }: { op: string }) => (aborted.push(op), null) } as Partial<Channel.Handlers<Protocol.SecureApi>> as Channel.Handlers<Protocol.SecureApi>
  Channel.create<Protocol.SecureApi, Protocol.SecureClientApi>({ port: port1, log, accepts: Protocol.secureParams, expects: {}, handlers, expose })
  const channel = Channel.create<Protocol.SecureClientApi, Protocol.SecureApi>({ port: port2, log, accepts: {}, expects: Protocol.secureResults, handlers: {}, expose })
  const store = createStore()
  store.set(secureStatusAtom, { state: 'ready', origin: 'http://127.0.0.1:5175', channel })
  store.set(hostOriginAtom, 'http://localhost:5173')
  store.set(resetAtom, { view: 'Account' })
  store.set(pushAtom, { view: 'WalletSecurity' })
  return { store, aborted }
}

describe('manageWalletAtom', () => {
  test('behavior: the secure-site runs the screen with the pinned host and a fresh op; when the person is done the view is popped', async () => {
    const manageWallet = vi.fn((_params: { op: string; host: string }) => null)
    const { store } = setup(manageWallet)
    await store.set(manageWalletAtom, new AbortController().signal)
    expect(manageWallet.mock.calls[0]![0]).toEqual({ op: expect.stringMatching(/^[0-9a-f]{32}$/), host: 'http://localhost:5173' })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
  })

  test('behavior: leaving the view ends the screen in the secure-site: its op is aborted, and no toast', async () => {
    let started!: () => void
    const showing = new Promise<void>((resolve) => (started = resolve))
    const { store, aborted } = setup(() => (started(), new Promise(() => {})))
    const leaving = new AbortController()
    const run = store.set(manageWalletAtom, leaving.signal)
    await showing
    leaving.abort()
    await run
    await vi.waitFor(() => expect(aborted).toHaveLength(1))
    expect(store.get(toastAtom).toast).toBeNull()
  })

  test("error: the secure-site's refusal is a toast, and the view is popped", async () => {
    const { store } = setup(() => {
      throw Errors.unauthorized()
    })
    await store.set(manageWalletAtom, new AbortController().signal)
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: Errors.unauthorized().message })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
  })
})
