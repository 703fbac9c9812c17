// @vitest-environment jsdom
/**
 * The Account view's account type (issue 25, spec §3 preferredAccountType and smartAccountDeployed): which
 * account the dapp sees, what it means, and the switch to the other one. Rendered from a store, with the
 * session's switch faked (it reconnects through the secure-site, which embedded.test.ts covers).
 */
import { embeddedText } from '@doorway/shared/texts/embedded'
import { createStore, Provider } from 'jotai'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { accountAtom } from '../../core/connection.js'
import { type Connector, embeddedId } from '../../core/connectors/Connector.js'
import { smartUnavailableAtom } from '../../features/embedded/accountType.js'
import AccountType from './AccountType.js'

const switched = vi.hoisted(() => ({ types: [] as string[], finish: undefined as (() => void) | undefined }))
vi.mock('../../features/embedded/embeddedSession.js', async () => {
  const { atom } = await import('jotai')
  return {
    // Resolves when the test says so: the switch reconnects, which takes a moment.
    switchAccountTypeAtom: atom(null, (_get, _set, type: string) => {
      switched.types.push(type)
      return new Promise<void>((resolve) => (switched.finish = resolve))
    }),
  }
})

beforeAll(() => void Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true }))
const unmounts: (() => void)[] = []
afterEach(async () => {
  for (const unmount of unmounts.splice(0)) await act(unmount)
  switched.types.length = 0
  switched.finish = undefined
})

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** The section as the frame draws it for the embedded wallet's account, smart or not; `code` is the chain's eth_getCode. */
async function render(options: { accountType: 'eoa' | 'smartAccount'; gasless?: boolean; code?: string; unavailable?: string }) {
  const request = vi.fn(async ({ method }: { method: string }) => (method === 'eth_getCode' ? (options.code ?? '0x') : null))
  const connector: Connector = {
    id: embeddedId,
    name: 'ada@example.com',
    type: 'AUTH',
    namespaces: ['eip155', 'solana'],
    accountType: options.accountType,
    ...(options.gasless !== undefined && { gasless: options.gasless }),
    request,
  }
  const store = createStore()
  store.set(accountAtom, { connector, address, chainId: 'eip155:31337' })
  store.set(smartUnavailableAtom, options.unavailable)
  const container = document.body.appendChild(document.createElement('div'))
  const root = createRoot(container)
  // Async: a smart account's eth_getCode answers within it (useDeployed).
  await act(async () =>
    root.render(
      <Provider store={store}>
        <AccountType />
      </Provider>,
    ),
  )
  unmounts.push(() => {
    root.unmount()
    container.remove()
  })
  const section = region(container, embeddedText.accountType)
  const button = section.querySelector('button')!
  return { section, button, request, texts: () => [...section.querySelectorAll('p')].map((p) => p.textContent) }
}

/** The region a screen reader lists under `name`: a section labelled by its heading. */
function region(container: HTMLElement, name: string): HTMLElement {
  const found = [...container.querySelectorAll<HTMLElement>('section[aria-labelledby]')].filter(
    (section) => document.getElementById(section.getAttribute('aria-labelledby')!)?.textContent === name,
  )
  expect(found).toHaveLength(1)
  return found[0]!
}

/** The text that describes an element (aria-describedby). */
const description = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby')!)?.textContent

describe('AccountType', () => {
  test('behavior: a regular account is named, explained, and offers the smart account, saying what the switch does', async () => {
    const { button, texts, request } = await render({ accountType: 'eoa' })
    expect(texts()).toEqual([embeddedText.eoa, embeddedText.eoaHint, embeddedText.switchNote])
    expect(button.textContent).toBe(embeddedText.switchToSmart)
    expect(description(button)).toBe(embeddedText.switchNote)
    // An EOA's code is never asked: only a smart account can be undeployed.
    expect(request).not.toHaveBeenCalled()
  })

  test('behavior: a regular account says why the preferred smart account is not the connected one', async () => {
    const unavailable = 'Smart accounts are not available on Anvil'
    const { section } = await render({ accountType: 'eoa', unavailable })
    expect(section.querySelector('[role="status"]')?.textContent).toBe(unavailable)
  })

  test('behavior: an undeployed smart account whose fees the app pays says both, and offers the regular account', async () => {
    const { section, button, texts, request } = await render({ accountType: 'smartAccount', gasless: true, code: '0x' })
    await vi.waitFor(() => expect(texts()).toContain(embeddedText.notDeployed))
    expect(request).toHaveBeenCalledWith({ method: 'eth_getCode', params: [address, 'latest'] })
    expect(texts()).toEqual([embeddedText.smartAccount, embeddedText.smartHint, embeddedText.notDeployed, embeddedText.sponsored, embeddedText.switchNote])
    expect(section.textContent).toContain('Network fees paid by the app')
    expect(button.textContent).toBe(embeddedText.switchToEoa)
  })

  test('behavior: a deployed smart account that pays its own fees says neither; an unavailable text is only for a regular account', async () => {
    const { texts, request } = await render({ accountType: 'smartAccount', gasless: false, code: '0x6080', unavailable: 'Smart accounts are not available on Anvil' })
    await vi.waitFor(() => expect(request).toHaveBeenCalled())
    await act(() => Promise.resolve())
    expect(texts()).toEqual([embeddedText.smartAccount, embeddedText.smartHint, embeddedText.switchNote])
  })

  test.each([
    ['eoa', 'smartAccount'],
    ['smartAccount', 'eoa'],
  ] as const)('behavior: from %s the switch asks for %s, and is busy until the wallet has reconnected', async (from, to) => {
    const { button } = await render({ accountType: from })
    const label = button.textContent
    await act(() => button.click())
    expect(switched.types).toEqual([to])
    expect(button.disabled).toBe(true)
    expect(button.textContent).toBe(embeddedText.switching)
    // A second press while switching asks nothing more.
    await act(() => button.click())
    expect(switched.types).toEqual([to])
    await act(async () => switched.finish!())
    expect(button.disabled).toBe(false)
    expect(button.textContent).toBe(label)
  })

  test('behavior: without an account there is no section', async () => {
    const container = document.createElement('div')
    const root = createRoot(container)
    await act(() =>
      root.render(
        <Provider store={createStore()}>
          <AccountType />
        </Provider>,
      ),
    )
    expect(container.innerHTML).toBe('')
    await act(() => root.unmount())
  })
})
