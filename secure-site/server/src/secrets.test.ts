import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import * as Envelope from './Envelope.js'
import * as Secrets from './secrets.js'
import * as Ticket from './Ticket.js'

let dir: string
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'doorway-secrets-')), 'secure')
})
afterEach(() => rm(join(dir, '..'), { recursive: true, force: true }))

describe('ensureDev', () => {
  test('behavior: makes every secret file, private to the owner, and answers the vault public key', async () => {
    const { vaultPublicKey } = await Secrets.ensureDev(dir)
    expect((await readdir(dir)).sort()).toEqual(Object.values(Secrets.files).sort())
    for (const name of await readdir(dir)) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600)
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
    expect(vaultPublicKey).toMatch(/^[\w-]{87}$/)
    expect(fromBase64url(vaultPublicKey)[0]).toBe(0x04)
  })

  test('behavior: a second run keeps what exists and makes only what is missing', async () => {
    const first = await Secrets.ensureDev(dir)
    const kek = await readFile(join(dir, Secrets.files.kek), 'utf8')
    await rm(join(dir, Secrets.files.ticketPublicKey))
    expect(await Secrets.ensureDev(dir)).toEqual(first)
    expect(await readFile(join(dir, Secrets.files.kek), 'utf8')).toBe(kek)
    expect(JSON.parse(await readFile(join(dir, Secrets.files.ticketPublicKey), 'utf8'))).not.toHaveProperty('d')
  })
})

describe('server and vault', () => {
  test('behavior: each process reads its own half, and the halves fit together', async () => {
    const { vaultPublicKey } = await Secrets.ensureDev(dir)
    const server = await Secrets.server({ dir, env: {} })
    const vault = await Secrets.vault({ dir, env: {} })
    expect(base64url(vault.publicKey)).toBe(vaultPublicKey)
    // A ticket the server signs is one the vault accepts.
    const now = Date.now()
    const { ticket, signature } = await Ticket.issue(server.ticketKey, { userId: 'u1', sealed: new Uint8Array(3), device: new Uint8Array(3), now })
    expect(await Ticket.read(vault.ticketKey, ticket, signature, now)).toMatchObject({ userId: 'u1' })
    // What the browser seals to the pinned key, the vault opens.
    const sealed = await Seal.seal(fromBase64url(vaultPublicKey), Uint8Array.of(7), Uint8Array.of(1))
    expect(await Seal.open(vault.key, sealed, Uint8Array.of(1))).toEqual(Uint8Array.of(7))
    expect(server.pepper).toHaveLength(32)
    await expect(Envelope.decrypt(server.kek, await Envelope.encrypt(server.kek, Uint8Array.of(1), 'a'), 'a')).resolves.toEqual(Uint8Array.of(1))
  })

  test('behavior: the environment wins over the files', async () => {
    await Secrets.ensureDev(dir)
    const pepper = base64url(new Uint8Array(48).fill(9))
    expect((await Secrets.server({ dir, env: { DOORWAY_OTP_PEPPER: pepper } })).pepper).toEqual(new Uint8Array(48).fill(9))
  })

  test.each([
    ['a short KEK_A', { DOORWAY_KEK_A: base64url(new Uint8Array(16)) }, 'KEK_A must be 32 bytes'],
    ['a short pepper', { DOORWAY_OTP_PEPPER: base64url(new Uint8Array(8)) }, 'The OTP pepper must be at least 32 bytes'],
    ['a ticket key that is not a JWK', { DOORWAY_TICKET_KEY: 'secret' }, 'DOORWAY_TICKET_KEY must be a P-256 JWK'],
  ])('error: %s is refused by name', async (_, env, message) => {
    await Secrets.ensureDev(dir)
    await expect(Secrets.server({ dir, env })).rejects.toThrow(message)
  })

  test('error: a missing secret names the variable and the file', async () => {
    await expect(Secrets.server({ dir, env: {} })).rejects.toThrow(`Missing secret: set DOORWAY_KEK_A or create ${join(dir, 'kek_a')}`)
    await expect(Secrets.vault({ dir, env: {} })).rejects.toThrow('DOORWAY_VAULT_KEY')
  })
})
