import { describe, expect, test } from 'vitest'
import { hopTarget, hopUrl, redirects } from './socialRedirect.js'

const pixel = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const secure = 'https://secure.doorway.example/'
const flow = 'ab'.repeat(16)
const start = `${secure}oauth/start?flow=${flow}`

describe('redirects (spec §7 social-redirect)', () => {
  test.each([
    ['Instagram on Android', `${pixel} Instagram 309.0.0.40.113 Android`],
    ['Facebook on iOS', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0]'],
    ['an Android WebView', 'Mozilla/5.0 (Linux; Android 14; Pixel 7; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0 Mobile Safari/537.36'],
    ['LINE', `${pixel} Line/13.4.1`],
  ])('behavior: %s redirects', (_, userAgent) => {
    expect(redirects(userAgent, false)).toBe(true)
  })

  test('behavior: a mobile or desktop browser opens a window; Telegram redirects whatever its user agent', () => {
    expect(redirects(pixel, false)).toBe(false)
    expect(redirects('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15', false)).toBe(false)
    expect(redirects(pixel, true)).toBe(true)
  })
})

describe('hopUrl', () => {
  test('behavior: the redirect page beside the frame, with the start address, ending in return= for the SDK to complete', () => {
    expect(hopUrl(start, 'https://frame.doorway.example/app/?x=1')).toBe(`https://frame.doorway.example/app/redirect.html?to=${encodeURIComponent(start)}&return=`)
  })

  test('behavior: what the SDK makes of it is what the page reads', () => {
    const back = 'https://dapp.example/shop?item=2#top'
    const href = hopUrl(start, 'https://frame.doorway.example/') + encodeURIComponent(back)
    expect(hopTarget(href, secure)).toBe(`https://secure.doorway.example/oauth/start?flow=${flow}&return=${encodeURIComponent(back)}`)
  })
})

describe('hopTarget (the redirect page never sends anyone elsewhere)', () => {
  const page = (to: string, back = 'https://dapp.example/') => `https://frame.doorway.example/redirect.html?to=${encodeURIComponent(to)}&return=${encodeURIComponent(back)}`

  test.each([
    ['another site', `https://evil.example/oauth/start?flow=${flow}`],
    ['another page of the secure-site', `${secure}vault?flow=${flow}`],
    ['a flow that is not an id', `${secure}oauth/start?flow=nope`],
    ['no start at all', ''],
    ['not a URL', 'oauth/start'],
  ])('error: %s', (_, to) => {
    expect(hopTarget(page(to), secure)).toBeNull()
  })

  test('error: a return address that is not a web page, or none', () => {
    expect(hopTarget(page(start, 'javascript:alert(1)'), secure)).toBeNull()
    expect(hopTarget(`https://frame.doorway.example/redirect.html?to=${encodeURIComponent(start)}`, secure)).toBeNull()
  })

  test('behavior: only the flow crosses from the start address; other parameters there are dropped', () => {
    const target = new URL(hopTarget(page(`${start}&return=https://evil.example/`), secure)!)
    expect([...target.searchParams.keys()]).toEqual(['flow', 'return'])
    expect(target.searchParams.get('return')).toBe('https://dapp.example/')
  })
})
