import { describe, expect, test } from 'vitest'
import * as Protocol from './Protocol.js'

describe('frameEvent navigate (issue 5: the SDK opens wallet links from the top window)', () => {
  const navigate = (url: string, target = '_self') => Protocol.frameEvent({ type: 'navigate', url, target })

  test.each([
    ['an app link', 'metamask://wc?uri=wc%3Aabc%402'],
    ['a universal link', 'https://link.trustwallet.com/wc?uri=wc%3Aabc'],
    ['an app store page', 'https://apps.apple.com/app/id1438144202'],
  ])('behavior: %s is accepted', (_, url) => {
    expect(navigate(url)).toBe(true)
    expect(navigate(url, '_blank')).toBe(true)
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

  test('error: a target other than _self or _blank is refused', () => {
    expect(navigate('https://w.example', '_top')).toBe(false)
    expect(navigate('https://w.example', 'wallet')).toBe(false)
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
