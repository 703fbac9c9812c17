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
