import { describe, expect, test } from 'vitest'
import { platformOf, socialsFor } from './telegram.js'

const all = ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'] as const
const agents = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
  other: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
}

describe('Telegram social filters (spec §5)', () => {
  test('behavior: iOS removes google', () => {
    expect(socialsFor(all, true, agents.ios)).toEqual(['x', 'discord', 'farcaster', 'github', 'apple', 'facebook'])
  })
  test('behavior: Mac removes x', () => {
    expect(socialsFor(all, true, agents.mac)).toEqual(['google', 'discord', 'farcaster', 'github', 'apple', 'facebook'])
  })
  test('behavior: Android removes facebook and x', () => {
    expect(socialsFor(all, true, agents.android)).toEqual(['google', 'discord', 'farcaster', 'github', 'apple'])
  })
  test('behavior: other platforms in Telegram keep every provider, in order', () => {
    expect(socialsFor(all, true, agents.other)).toEqual([...all])
  })
  test('behavior: outside Telegram nothing is removed, whatever the device', () => {
    for (const agent of Object.values(agents)) expect(socialsFor(all, false, agent)).toEqual([...all])
  })
  test('behavior: an iPhone is iOS although its agent says "like Mac OS X"', () => {
    expect(platformOf(agents.ios)).toBe('ios')
    expect(platformOf('')).toBe('other')
  })
})
