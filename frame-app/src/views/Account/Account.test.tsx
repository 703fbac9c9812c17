// @vitest-environment jsdom
/**
 * The Account view's identity (spec §3 Account user): the embedded wallet's login under the address. After
 * a social sign-in the provider's name stands beside the email, isolated, and their picture before it as
 * a decorative image, only from an http(s) URL. Rendered as the frame draws it, from a store.
 */
import * as Constants from '@doorway/shared/Constants'
import { createStore, Provider } from 'jotai'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { type Connector, embeddedId } from '../../core/connectors/Connector.js'
import { Account } from './Account.js'
import { User } from './User.js'

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** The Account view's markup with an account whose connector has this login (none: a wallet's). */
function render(user?: Record<string, unknown>) {
  const connector = { id: user ? embeddedId : 'io.metamask', name: 'W', type: user ? 'AUTH' : 'ANNOUNCED', namespaces: ['eip155'], request: async () => null, ...(user && { user }) } as Connector
  const store = createStore()
  store.set(configAtom, { networks: [], features: Constants.defaultFeatures, enableNetworkSwitch: false } as never)
  store.set(accountAtom, { connector, address, chainId: 'eip155:31337' })
  const markup = renderToStaticMarkup(
    <Provider store={store}>
      <Account />
    </Provider>,
  )
  const login = /<p class="identity-user">.*?<\/p>/.exec(markup)?.[0]
  return { markup, login }
}

describe('Account', () => {
  test("behavior: after a social sign-in the provider's name is beside the email, isolated, and the picture before it, decorative", () => {
    const { login } = render({ email: 'ada@example.com', username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' })
    expect(login).toBe(
      '<p class="identity-user"><img class="identity-user-avatar" src="https://lh3.example/ada.png" alt="" width="20" height="20" referrerPolicy="no-referrer"/>' +
        '<bdi class="identity-username">Ada Lovelace</bdi><span class="muted identity-email">ada@example.com</span></p>',
    )
  })

  test('behavior: a name that runs right to left is isolated from the email; a provider that gave no picture shows none', () => {
    const { login } = render({ email: 'ada@example.com', username: 'أدا لوفليس' })
    expect(login).toBe('<p class="identity-user"><bdi class="identity-username">أدا لوفليس</bdi><span class="muted identity-email">ada@example.com</span></p>')
  })

  test("behavior: a code's login is the email alone; a wallet has no login line", () => {
    expect(render({ email: 'ada@example.com' }).login).toBe('<p class="identity-user"><span class="muted identity-email">ada@example.com</span></p>')
    const wallet = render()
    expect(wallet.login).toBeUndefined()
    expect(wallet.markup).toContain('0x7099')
  })

  test.each([
    ['a script URL', 'javascript:alert(1)'],
    ['a data URL', 'data:image/svg+xml,<svg/>'],
    ['no URL', 'ada.png'],
  ])('error: a picture from %s is not shown; the name still is', (_, avatar) => {
    const { login } = render({ email: 'ada@example.com', username: 'Ada Lovelace', avatar })
    expect(login).toBe('<p class="identity-user"><bdi class="identity-username">Ada Lovelace</bdi><span class="muted identity-email">ada@example.com</span></p>')
  })

  test('behavior: the name is text, never markup', () => {
    const { login } = render({ email: 'ada@example.com', username: '<img src=x onerror=alert(1)>' })
    expect(login).toContain('<bdi class="identity-username">&lt;img src=x onerror=alert(1)&gt;</bdi>')
  })
})

describe('User', () => {
  test('behavior: a picture that does not load (gone, or outside the CSP img-src) is dropped; the name and email stay', async () => {
    Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })
    const container = document.createElement('div')
    const root = createRoot(container)
    await act(() => root.render(<User user={{ email: 'ada@example.com', username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' }} />))
    const image = container.querySelector('img')!
    expect(image.getAttribute('alt')).toBe('')
    await act(() => image.dispatchEvent(new Event('error')))
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toBe('Ada Lovelaceada@example.com')
    await act(() => root.unmount())
  })
})
