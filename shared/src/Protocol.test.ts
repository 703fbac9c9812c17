import { describe, expect, test } from 'vitest'
import * as Protocol from './Protocol.js'

describe('frameEvent navigate (issue 5: the SDK opens wallet links from the top window)', () => {
  const navigate = (url: string, extra: Record<string, unknown> = {}) => Protocol.frameEvent({ type: 'navigate', url, ...extra })

  test.each([
    ['an app link', 'metamask://wc?uri=wc%3Aabc%402'],
    ['a universal link', 'https://link.trustwallet.com/wc?uri=wc%3Aabc'],
    ['an app store page', 'https://apps.apple.com/app/id1438144202'],
  ])('behavior: %s is accepted', (_, url) => {
    expect(navigate(url)).toBe(true)
  })

  test.each([
    ['a script URL', 'javascript:alert(document.cookie)'],
    ['a script URL in capitals', 'JavaScript://%0aalert(1)'],
    ['a data URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', '/wc?uri=x'],
    ['an empty string', ''],
    ['a URL over 4 KB', `https://w.example/${'a'.repeat(4096)}`],
  ])('error: %s is refused', (_, url) => {
    expect(navigate(url)).toBe(false)
  })

  test('error: the frame cannot choose the target (the SDK does: web pages always in a new tab)', () => {
    expect(navigate('https://w.example', { target: '_self' })).toBe(false)
  })
})

test('behavior: a wallet uuid is its 36-character form only', () => {
  const info = (uuid: string) =>
    Protocol.walletInfo({ uuid, name: 'W', icon: 'data:image/svg+xml,<svg/>', rdns: 'io.example', type: 'ANNOUNCED' })
  expect(info('350670db-19fa-4704-a166-e52e178b59d2')).toBe(true)
  expect(info('350670db-19fa-4704-a166-e52e178b59d')).toBe(false)
  expect(info('350670db-19fa-4704-a166-e52e178b59d2x')).toBe(false)
  expect(info('<script>alert(1)</script>aaaaaaaaaaaaaaaaa')).toBe(false)
})

describe('openResult', () => {
  const hash = `0x${'ab'.repeat(32)}`
  test.each(['sent', 'swapped'])('behavior: a %s transaction settles open() with its hash and chain', (status) => {
    expect(Protocol.openResult({ status, hash, chainId: 'eip155:31337' })).toBe(true)
  })

  test('error: a swap result without a full hash is refused', () => {
    expect(Protocol.openResult({ status: 'swapped', hash: '0xab', chainId: 'eip155:31337' })).toBe(false)
    expect(Protocol.openResult({ status: 'swapped', hash, chainId: 'eip155:31337', amount: '1' })).toBe(false)
  })
})

describe('views (issue 11)', () => {
  test('behavior: Swap is openable; its steps are not (they need the flow before them)', () => {
    expect(Protocol.openableViews).toContain('Swap')
    for (const step of ['SwapSelectToken', 'SwapPreview', 'SwapResult'] as const) {
      expect(Protocol.views).toContain(step)
      expect(Protocol.openableViews).not.toContain(step as never)
    }
  })
})

describe('embeddedAccount (spec §3 Account user.username)', () => {
  const account = { email: 'ada@example.com', address: `0x${'ab'.repeat(20)}`, solanaAddress: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk' }

  test('behavior: an account from a code has neither; a social sign-in may add the provider\'s name and an http(s) picture', () => {
    expect(Protocol.embeddedAccount(account)).toBe(true)
    expect(Protocol.embeddedAccount({ ...account, username: 'Ada Lovelace' })).toBe(true)
    expect(Protocol.embeddedAccount({ ...account, username: 'أدا', avatar: 'https://lh3.example/a.png' })).toBe(true)
    expect(Protocol.embeddedAccount({ ...account, avatar: `http://127.0.0.1:8795/google/avatars/${'1'.repeat(459)}.svg` })).toBe(true)
  })

  test.each([
    ['an empty name', { username: '' }],
    ['a name over 100 characters', { username: 'a'.repeat(101) }],
    ['a name that is no string', { username: 42 }],
    ['a null name', { username: null }],
    ['a script URL', { avatar: 'javascript:alert(1)' }],
    ['a data URL', { avatar: 'data:image/svg+xml,<svg onload="alert(1)"/>' }],
    ['a relative path', { avatar: '/a.png' }],
    ['no URL at all', { avatar: 'not a url' }],
    ['a URL over 500 characters', { avatar: `https://img.example/${'a'.repeat(481)}` }],
    ['a null picture', { avatar: null }],
    ['a key of its own', { picture: 'https://img.example/a.png' }],
  ])('error: %s is refused', (_, extra) => {
    expect(Protocol.embeddedAccount({ ...account, ...extra })).toBe(false)
    expect(Protocol.secureResults.restore({ account: { ...account, ...extra } })).toBe(false)
  })
})

describe('modalState user (spec §3 Account user)', () => {
  const state = { open: false, view: 'Account', loading: false, status: 'connected' }

  test('behavior: the login\'s email and the provider\'s name are optional, and so is the user', () => {
    for (const user of [undefined, {}, { email: 'ada@example.com' }, { email: 'ada@example.com', username: 'Ada Lovelace' }]) expect(Protocol.modalState({ ...state, user })).toBe(true)
  })

  test.each([
    ['an empty name', { username: '' }],
    ['a name over 100 characters', { username: 'a'.repeat(101) }],
    ['an email over 254 characters', { email: `${'a'.repeat(250)}@x.io` }],
    ['the picture, which the state does not carry', { avatar: 'https://img.example/a.png' }],
    ['no object', 'ada@example.com'],
  ])('error: %s is refused', (_, user) => {
    expect(Protocol.modalState({ ...state, user })).toBe(false)
  })
})
