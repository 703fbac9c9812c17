import { describe, expect, test } from 'vitest'
import * as Audit from './Audit.js'

/** A chain of three as the storage writes it. */
function chain(userId = 'u1') {
  const entries: (Audit.Entry & { prevHash: string; hash: string })[] = []
  let prevHash = Audit.genesis
  for (const [i, kind] of ['code.verified', 'wallet.created', 'share.released'].entries()) {
    const entry = { seq: i + 1, userId, at: 1_000 + i, kind, detail: { deviceId: 'd1', n: i } }
    const hash = Audit.hash(prevHash, entry)
    entries.push({ ...entry, prevHash, hash })
    prevHash = hash
  }
  return entries
}

describe('canonical', () => {
  test('behavior: keys are sorted at every depth; arrays keep their order', () => {
    expect(Audit.canonical({ b: 1, a: { d: [2, 1], c: null }, e: 'x' })).toMatchInlineSnapshot(`"{"a":{"c":null,"d":[2,1]},"b":1,"e":"x"}"`)
  })
})

describe('hash', () => {
  test('behavior: sha256 over the previous hash and the canonical entry; key order does not matter', () => {
    const entry = { seq: 1, userId: 'u1', at: 1, kind: 'k', detail: { a: 1, b: 2 } }
    expect(Audit.hash(Audit.genesis, entry)).toMatch(/^[\da-f]{64}$/)
    expect(Audit.hash(Audit.genesis, { ...entry, detail: { b: 2, a: 1 } })).toBe(Audit.hash(Audit.genesis, entry))
    expect(Audit.hash('1'.repeat(64), entry)).not.toBe(Audit.hash(Audit.genesis, entry))
  })
})

describe('verifyChain', () => {
  test('behavior: an untouched chain verifies, and so does an empty one', () => {
    expect(Audit.verifyChain(chain())).toEqual({ ok: true })
    expect(Audit.verifyChain([])).toEqual({ ok: true })
  })

  test.each([
    ['a changed detail', (c: ReturnType<typeof chain>) => (c[1]!.detail = { deviceId: 'elsewhere' })],
    ['a changed time', (c: ReturnType<typeof chain>) => (c[1]!.at += 1)],
    ['a dropped entry', (c: ReturnType<typeof chain>) => c.splice(1, 1)],
    ['swapped entries', (c: ReturnType<typeof chain>) => c.splice(1, 2, c[2]!, c[1]!)],
    ['a rehashed entry (its successor still points at the old hash)', (c: ReturnType<typeof chain>) => {
      c[1]!.kind = 'x'
      c[1]!.hash = Audit.hash(c[1]!.prevHash, c[1]!)
    }],
  ])('error: %s is found', (_, tamper) => {
    const entries = chain()
    tamper(entries)
    expect(Audit.verifyChain(entries).ok).toBe(false)
  })

  test('error: entries moved to another user do not verify', () => {
    expect(Audit.verifyChain(chain().map((e) => ({ ...e, userId: 'u2' })))).toEqual({ ok: false, seq: 1 })
  })
})
