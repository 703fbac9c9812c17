import * as Attest from '@doorway/secure-site/common/Attest'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import { beforeAll, describe, expect, test } from 'vitest'
import * as Ticket from './Ticket.js'

const now = Date.UTC(2026, 10, 23, 12)
let key: CryptoKeyPair
beforeAll(async () => {
  key = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
})

/** A ticket over claims written by hand, signed with the right key: only `read`'s checks stand in the way. */
async function signed(claims: unknown) {
  const ticket = Base64url.encode(new TextEncoder().encode(JSON.stringify(claims)))
  const signature = Base64url.encode(new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, new TextEncoder().encode(ticket))))
  return { ticket, signature }
}

describe('issue and read', () => {
  test('behavior: the claims name the purpose, the user and the fingerprints of what was given', async () => {
    const sealed = Uint8Array.of(1, 2, 3)
    const device = Uint8Array.of(4, 5, 6)
    const { ticket, signature } = await Ticket.issue(key.privateKey, { purpose: 'reseal', userId: 'user-1', sealed, device, now })
    const claims = await Ticket.read(key.publicKey, ticket, signature, now)
    expect(claims).toEqual({ purpose: 'reseal', userId: 'user-1', sealed: await Attest.fingerprint(sealed), device: await Attest.fingerprint(device), exp: now + Ticket.lifetimeMs, jti: expect.stringMatching(/^[0-9a-f]{32}$/) })
  })

  test('behavior: what was not given is not claimed', async () => {
    const { ticket, signature } = await Ticket.issue(key.privateKey, { purpose: 'approve', userId: 'user-1', device: Uint8Array.of(4), now })
    const claims = await Ticket.read(key.publicKey, ticket, signature, now)
    expect(claims).toMatchObject({ purpose: 'approve', device: await Attest.fingerprint(Uint8Array.of(4)) })
    expect(claims).not.toHaveProperty('sealed')
  })

  test('behavior: every ticket has its own id', async () => {
    const a = await Ticket.issue(key.privateKey, { purpose: 'revoke', userId: 'u', now })
    const b = await Ticket.issue(key.privateKey, { purpose: 'revoke', userId: 'u', now })
    expect((await Ticket.read(key.publicKey, a.ticket, a.signature, now))?.jti).not.toBe((await Ticket.read(key.publicKey, b.ticket, b.signature, now))?.jti)
  })

  test('behavior: fingerprint is the statements\' fingerprint', () => {
    expect(Ticket.fingerprint).toBe(Attest.fingerprint)
  })

  test('error: a ticket is good for its lifetime and never longer', async () => {
    const { ticket, signature } = await Ticket.issue(key.privateKey, { purpose: 'register', userId: 'u', sealed: Uint8Array.of(1), now })
    expect(await Ticket.read(key.publicKey, ticket, signature, now + Ticket.lifetimeMs - 1)).toBeDefined()
    expect(await Ticket.read(key.publicKey, ticket, signature, now + Ticket.lifetimeMs)).toBeUndefined()
    // Claiming more than the lifetime (a clock far behind, or a forged exp) is refused too.
    expect(await Ticket.read(key.publicKey, ticket, signature, now - 1)).toBeUndefined()
  })

  test('error: another key\'s signature, a changed ticket or garbage is undefined', async () => {
    const other = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
    const forged = await Ticket.issue(other.privateKey, { purpose: 'reseal', userId: 'u', now })
    expect(await Ticket.read(key.publicKey, forged.ticket, forged.signature, now)).toBeUndefined()
    const { ticket, signature } = await Ticket.issue(key.privateKey, { purpose: 'reseal', userId: 'u', now })
    expect(await Ticket.read(key.publicKey, `${ticket}A`, signature, now)).toBeUndefined()
    expect(await Ticket.read(key.publicKey, 'not-json', signature, now)).toBeUndefined()
    expect(await Ticket.read(key.publicKey, ticket, 'short', now)).toBeUndefined()
    expect(await Ticket.read(key.publicKey, 1 as unknown as string, signature, now)).toBeUndefined()
  })

  const good = { purpose: 'reseal', userId: 'u', sealed: 'a'.repeat(64), device: 'b'.repeat(64), exp: now + 1000, jti: 'c'.repeat(32) }
  test.each([
    ['an unknown purpose', { purpose: 'export' }],
    ['no purpose', { purpose: undefined }],
    ['a user id with a line break', { userId: 'u\n1' }],
    ['an empty user id', { userId: '' }],
    ['a fingerprint that is not hex', { sealed: 'zz' }],
    ['a numeric device', { device: 7 }],
    ['a jti that is not an id', { jti: 'x' }],
    ['an exp that is text', { exp: String(now + 1000) }],
  ])('error: signed claims with %s are undefined', async (_, change) => {
    const control = await signed(good)
    expect(await Ticket.read(key.publicKey, control.ticket, control.signature, now)).toBeDefined()
    const { ticket, signature } = await signed({ ...good, ...change })
    expect(await Ticket.read(key.publicKey, ticket, signature, now)).toBeUndefined()
  })

  test('error: signed JSON that is not an object is undefined', async () => {
    const { ticket, signature } = await signed(null)
    expect(await Ticket.read(key.publicKey, ticket, signature, now)).toBeUndefined()
  })
})
