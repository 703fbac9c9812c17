import { describe, expect, test } from 'vitest'
import { announce } from './Announce.js'
import * as Icon from './Icon.js'

const info = { uuid: '3f0c0d5e-0000-4000-8000-000000000000', name: 'Doorway Dev Wallet', icon: Icon.dataUri, rdns: 'dev.doorway.wallet' }

describe('announce', () => {
  test('behavior: announces at once and again on every requestProvider, with frozen detail', () => {
    const target = new EventTarget()
    const seen: any[] = []
    target.addEventListener('eip6963:announceProvider', (event) => seen.push((event as CustomEvent).detail))
    const provider = { request: async () => null }
    const stop = announce(target, info, provider)
    target.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(seen).toHaveLength(2)
    expect(seen[1]).toBe(seen[0])
    expect(seen[0].provider).toBe(provider)
    expect(seen[0].info).toEqual(info)
    expect(Object.isFrozen(seen[0]) && Object.isFrozen(seen[0].info)).toBe(true)
    stop()
    target.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(seen).toHaveLength(2)
  })

  test('behavior: the icon is a base64 SVG data URI', () => {
    expect(Icon.dataUri).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/)
    expect(atob(Icon.dataUri.split(',')[1]!)).toContain('<svg')
  })
})
