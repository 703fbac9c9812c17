import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Attest from '@doorway/secure-site/common/Attest'
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
  test('behavior: makes each process its own directory of secret files, private to the owner, and answers the build keys', async () => {
    const made = await Secrets.ensureDev(dir)
    expect((await readdir(made.server)).sort()).toEqual(Object.values(Secrets.files.server).sort())
    expect((await readdir(made.vault)).sort()).toEqual(Object.values(Secrets.files.vault).sort())
    for (const sub of [made.server, made.vault]) {
      for (const name of await readdir(sub)) expect((await stat(join(sub, name))).mode & 0o777).toBe(0o600)
      expect((await stat(sub)).mode & 0o777).toBe(0o700)
    }
    for (const key of Object.values(made.buildKeys)) {
      expect(key).toMatch(/^[\w-]{87}$/)
      expect(fromBase64url(key)[0]).toBe(0x04)
    }
  })

  test('behavior: a second run keeps what exists and makes only what is missing', async () => {
    const first = await Secrets.ensureDev(dir)
    const kek = await readFile(join(first.server, Secrets.files.server.kek), 'utf8')
    await rm(join(first.vault, Secrets.files.vault.ticketPublicKey))
    expect(await Secrets.ensureDev(dir)).toEqual(first)
    expect(await readFile(join(first.server, Secrets.files.server.kek), 'utf8')).toBe(kek)
    expect(JSON.parse(await readFile(join(first.vault, Secrets.files.vault.ticketPublicKey), 'utf8'))).not.toHaveProperty('d')
  })
})

describe('server and vault', () => {
  test('behavior: each process reads its own half, and the halves fit together', async () => {
    const made = await Secrets.ensureDev(dir)
    const server = await Secrets.server({ dir: made.server, env: {} })
    const vault = await Secrets.vault({ dir: made.vault, env: {} })
    expect(base64url(vault.publicKey)).toBe(made.buildKeys.DOORWAY_VAULT_PUBLIC_KEY)
    expect(base64url(vault.signingPublicKey)).toBe(made.buildKeys.DOORWAY_VAULT_SIGNING_PUBLIC_KEY)
    // A ticket the server signs is one the vault accepts.
    const now = Date.now()
    const { ticket, signature } = await Ticket.issue(server.ticketKey, { purpose: 'reseal', userId: 'u1', sealed: new Uint8Array(3), device: new Uint8Array(3), now })
    expect(await Ticket.read(vault.ticketKey, ticket, signature, now)).toMatchObject({ userId: 'u1', purpose: 'reseal' })
    // What the browser seals to the pinned keys, the vault and the server open.
    const sealed = await Seal.seal(fromBase64url(made.buildKeys.DOORWAY_VAULT_PUBLIC_KEY), Uint8Array.of(7), Uint8Array.of(1))
    expect(await Seal.open(vault.key, sealed, Uint8Array.of(1))).toEqual(Uint8Array.of(7))
    const upload = await Seal.seal(fromBase64url(made.buildKeys.DOORWAY_SERVER_PUBLIC_KEY), Uint8Array.of(8), Uint8Array.of(2))
    expect(await Seal.open(server.transportKey, upload, Uint8Array.of(2))).toEqual(Uint8Array.of(8))
    // What the vault signs, the pinned signing key checks.
    const statement = { kind: 'wallet', userId: 'u1', email: 'a@b.test', address: '0x0000000000000000000000000000000000000001' } as const
    expect(await Attest.verify(fromBase64url(made.buildKeys.DOORWAY_VAULT_SIGNING_PUBLIC_KEY), statement, await Attest.sign(vault.signingKey, statement))).toBe(true)
    expect(server.pepper).toHaveLength(32)
    await expect(Envelope.decrypt(server.kek, await Envelope.encrypt(server.kek, Uint8Array.of(1), 'a'), 'a')).resolves.toEqual(Uint8Array.of(1))
  })

  test('security: a process that can read the other\'s private keys refuses to start (docs/embedded-wallet.md §9)', async () => {
    const made = await Secrets.ensureDev(dir)
    const vaultKey = await readFile(join(made.vault, Secrets.files.vault.key), 'utf8')
    await expect(Secrets.server({ dir: made.server, env: { DOORWAY_VAULT_KEY: vaultKey } })).rejects.toThrow(/server can read the vault's secret DOORWAY_VAULT_KEY/)
    await writeFile(join(made.server, Secrets.files.vault.signingKey), vaultKey)
    await expect(Secrets.server({ dir: made.server, env: {} })).rejects.toThrow(/server can read the vault's secret .*vault-signing\.jwk/)
    await expect(Secrets.vault({ dir: made.vault, env: { DOORWAY_KEK_A: 'x' } })).rejects.toThrow(/vault can read the server's secret DOORWAY_KEK_A/)
  })

  test('behavior: the environment wins over the files', async () => {
    const made = await Secrets.ensureDev(dir)
    const pepper = base64url(new Uint8Array(48).fill(9))
    expect((await Secrets.server({ dir: made.server, env: { DOORWAY_OTP_PEPPER: pepper } })).pepper).toEqual(new Uint8Array(48).fill(9))
  })

  test.each([
    ['a short KEK_A', { DOORWAY_KEK_A: base64url(new Uint8Array(16)) }, 'KEK_A must be 32 bytes'],
    ['a short pepper', { DOORWAY_OTP_PEPPER: base64url(new Uint8Array(8)) }, 'The OTP pepper must be at least 32 bytes'],
    ['a ticket key that is not a JWK', { DOORWAY_TICKET_KEY: 'secret' }, 'DOORWAY_TICKET_KEY must be a P-256 JWK'],
  ])('error: %s is refused by name', async (_, env, message) => {
    const made = await Secrets.ensureDev(dir)
    await expect(Secrets.server({ dir: made.server, env })).rejects.toThrow(message)
  })

  test('error: a missing secret names the variable and the file', async () => {
    await expect(Secrets.server({ dir, env: {} })).rejects.toThrow(`Missing secret: set DOORWAY_KEK_A or create ${join(dir, 'kek_a')}`)
    await expect(Secrets.vault({ dir, env: {} })).rejects.toThrow('DOORWAY_VAULT_KEY')
  })
})
