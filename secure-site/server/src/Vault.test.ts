import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import { beforeAll, describe, expect, test } from 'vitest'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'

const t0 = Date.UTC(2026, 10, 23, 12)
let clock = t0
let vault: CryptoKeyPair
let vaultPublic: Uint8Array
let server: CryptoKeyPair
let app: ReturnType<typeof Vault.app>
beforeAll(async () => {
  vault = await Seal.generateKeyPair()
  vaultPublic = await Seal.exportPublicKey(vault.publicKey)
  server = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
  app = Vault.app({ key: vault.privateKey, publicKey: vaultPublic, ticketKey: server.publicKey, now: () => clock })
})

const aad = new TextEncoder().encode('user-1')
/** A recovery as the notes draw it: R2 sealed to the vault at creation; a new device asks for it. */
async function recovery() {
  clock = t0
  const secret = Shares.entropy()
  const split = await Shares.splitTwice(secret)
  const sealed = await Seal.seal(vaultPublic, split.recovery2, aad)
  const device = await Seal.generateKeyPair()
  const devicePublic = await Seal.exportPublicKey(device.publicKey)
  const ticket = await Ticket.issue(server.privateKey, { userId: 'user-1', sealed, device: devicePublic, now: clock })
  const body = { ...ticket, sealed: base64url(sealed), device: base64url(devicePublic) }
  return { secret, split, sealed, device, devicePublic, ticket, body }
}
const reseal = (body: unknown) =>
  app.request('/reseal', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('Vault.app', () => {
  test('behavior: a valid ticket re-seals R2 to the device, which rebuilds the wallet with R1', async () => {
    const { body, device, split, secret } = await recovery()
    const response = await reseal(body)
    expect(response.status).toBe(200)
    const { sealed } = (await response.json()) as { sealed: string }
    const r2 = await Seal.open(device.privateKey, fromBase64url(sealed), aad)
    expect(await Shares.combine(split.recovery1, r2, Shares.evmAccount(secret).address)).toEqual(secret)
  })

  test('behavior: the answer never holds R2 in clear', async () => {
    const { body, split } = await recovery()
    const text = await (await reseal(body)).text()
    expect(text).not.toContain(base64url(split.recovery2))
    expect(text).not.toContain(Buffer.from(split.recovery2).toString('hex'))
  })

  test('error: a ticket works once', async () => {
    const { body } = await recovery()
    expect((await reseal(body)).status).toBe(200)
    const again = await reseal(body)
    expect(again.status).toBe(401)
    expect(await again.json()).toEqual({ message: 'The ticket was already used' })
  })

  test('error: an expired ticket is refused', async () => {
    const { body } = await recovery()
    clock = t0 + Ticket.lifetimeMs
    expect((await reseal(body)).status).toBe(401)
  })

  test('error: a ticket signed by another key is refused', async () => {
    const { sealed, devicePublic, body } = await recovery()
    const other = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
    const forged = await Ticket.issue(other.privateKey, { userId: 'user-1', sealed, device: devicePublic, now: clock })
    const response = await reseal({ ...body, ...forged })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ message: 'The ticket is not valid' })
  })

  test('error: a ticket for one device key does not re-seal to another (a stolen ticket)', async () => {
    const { body } = await recovery()
    const thief = await Seal.exportPublicKey((await Seal.generateKeyPair()).publicKey)
    const response = await reseal({ ...body, device: base64url(thief) })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ message: 'The ticket is for another share or device' })
  })

  test('error: a ticket for one user\'s share does not open another sealed share', async () => {
    const { body } = await recovery()
    const otherShare = await Seal.seal(vaultPublic, new Uint8Array(17), new TextEncoder().encode('user-2'))
    expect((await reseal({ ...body, sealed: base64url(otherShare) })).status).toBe(401)
  })

  test.each([
    ['no body', undefined],
    ['a missing field', { ticket: 'a', signature: 'b', sealed: 'c' }],
    ['a number', { ticket: 1, signature: 'b', sealed: 'c', device: 'd' }],
    ['an oversized field', { ticket: 'a'.repeat(5000), signature: 'b', sealed: 'c', device: 'd' }],
  ])('error: %s is a 400, never a 500', async (_, body) => {
    expect((await reseal(body)).status).toBe(400)
  })

  test('error: a garbled ticket is a 401, never a 500', async () => {
    const { body } = await recovery()
    expect((await reseal({ ...body, ticket: 'not-json' })).status).toBe(401)
  })

  test('behavior: the vault serves its public key for pinning', async () => {
    const response = await app.request('/public-key')
    expect(await response.json()).toEqual({ publicKey: base64url(vaultPublic) })
  })
})

describe('Ticket.read', () => {
  test('error: a ticket claiming a lifetime beyond the limit is refused', async () => {
    const { ticket } = await recovery()
    expect(await Ticket.read(server.publicKey, ticket.ticket, ticket.signature, t0 - 1)).toBeUndefined()
    expect(await Ticket.read(server.publicKey, ticket.ticket, ticket.signature, t0)).toMatchObject({ userId: 'user-1' })
  })
})
