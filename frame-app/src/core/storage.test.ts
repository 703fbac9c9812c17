import { describe, expect, test } from 'vitest'
import { cookieBackend } from './storage.js'
import { cookieJar as jar } from './cookieJar.testing.js'

describe('cookieBackend', () => {
  test('behavior: round-trips values with any characters', () => {
    const doc = jar()
    const backend = cookieBackend(doc)
    const value = JSON.stringify({ connectorId: 'dev.doorway.wallet', note: 'a; b=c ü' })
    backend.set('@doorway/connection', value)
    backend.set('@doorway/other', '1')
    expect(backend.get('@doorway/connection')).toBe(value)
    expect(backend.get('@doorway/missing')).toBeNull()
  })

  test('behavior: cookies are partitioned, cross-site capable and long-lived', () => {
    const doc = jar()
    cookieBackend(doc).set('@doorway/x', '1')
    expect(doc.writes[0]).toMatch(/; Max-Age=31536000; Path=\/; SameSite=None; Secure; Partitioned$/)
  })

  test('behavior: remove deletes the cookie', () => {
    const doc = jar()
    const backend = cookieBackend(doc)
    backend.set('@doorway/x', '1')
    backend.remove('@doorway/x')
    expect(backend.get('@doorway/x')).toBeNull()
  })
})
