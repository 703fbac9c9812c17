/**
 * The two processes as `npm start` runs them, each with its own secrets directory and database: the
 * server over real HTTP with its PGlite directory, SMTP to the devnet sink and the vault over HTTP; the
 * vault with its own PGlite directory, mailing its approval links through the same sink; and the vault
 * as a child process.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as MailSink from '@doorway/devnet/mailSink'
import * as Attest from '@doorway/secure-site/common/Attest'
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Main from './main.js'
import * as Secrets from './secrets.js'

let dir: string
let made: Awaited<ReturnType<typeof Secrets.ensureDev>>
/** The points a secure-site build pins, as bytes. */
let pinned: { vault: Uint8Array; vaultSigning: Uint8Array; server: Uint8Array }
// Both processes' clock, moved past the 30 s resend throttle instead of waiting it out.
let offset = 0
const now = () => Date.now() + offset
const utf8 = (text: string) => new TextEncoder().encode(text)
type Json = Record<string, any>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doorway-secure-main-'))
  made = await Secrets.ensureDev(join(dir, 'secrets'))
  const { DOORWAY_VAULT_PUBLIC_KEY, DOORWAY_VAULT_SIGNING_PUBLIC_KEY, DOORWAY_SERVER_PUBLIC_KEY } = made.buildKeys
  pinned = { vault: fromBase64url(DOORWAY_VAULT_PUBLIC_KEY), vaultSigning: fromBase64url(DOORWAY_VAULT_SIGNING_PUBLIC_KEY), server: fromBase64url(DOORWAY_SERVER_PUBLIC_KEY) }
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('start and startVault', () => {
  // Where the person's browser would reach the vault; the test posts the approval to the vault's real URL.
  const publicUrl = 'http://vault.localhost:8791'
  let sink: MailSink.start.ReturnType
  let vault: Main.Running
  let server: Main.Running
  beforeAll(async () => {
    await mkdir(join(dir, 'static'))
    await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>secure</title>')
    sink = await MailSink.start({ smtpPort: 0, httpPort: 0 })
    vault = await Main.startVault(
      { host: '127.0.0.1', port: 0, secretsDir: made.vault, storage: { kind: 'embedded', dir: join(dir, 'vault-db') }, smtp: sink.smtp, publicUrl },
      { env: {}, now },
    )
    server = await Main.start(
      {
        host: '127.0.0.1',
        port: 0,
        storage: { kind: 'embedded', dir: join(dir, 'db') },
        secretsDir: made.server,
        smtp: sink.smtp,
        vaultUrl: vault.url,
        staticDir: join(dir, 'static'),
      },
      { env: {}, now },
    )
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await vault?.stop()
    await sink?.stop()
  })

  /** A browser's device: its request key and seal key, enrolled, and signed calls. */
  async function device() {
    const pair = await Stamp.generateKey()
    const seal = await Seal.generateKeyPair()
    const sealPoint = await Seal.exportPublicKey(seal.publicKey)
    const id = Ids.random()
    const call = async (path: string, body: unknown) => {
      const text = JSON.stringify(body)
      const sig = await Stamp.sign(pair.privateKey, { method: 'POST', path, body: text, deviceId: id, now: now() })
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { [Stamp.header]: sig, 'content-type': 'application/json' }, body: text })
      return { status: response.status, body: (await response.json()) as Json }
    }
    expect((await call('/v1/devices', { deviceId: id, publicKey: await Stamp.exportPublicKey(pair.publicKey), sealKey: base64url(sealPoint) })).status).toBe(201)
    return { id, seal, sealPoint, call }
  }
  type Device = Awaited<ReturnType<typeof device>>

  const inbox = async (email: string) => ((await (await fetch(`${sink.url}/messages?to=${encodeURIComponent(email)}`)).json()) as { messages: MailSink.Message[] }).messages

  /** The first mail to `email` past its first `before` mails whose subject matches, once it arrived. */
  async function mailed(email: string, before: number, subject: RegExp): Promise<MailSink.Message> {
    const find = async () => (await inbox(email)).slice(before).find((m) => subject.test(m.subject))
    await expect.poll(find, { timeout: 10_000 }).toBeDefined()
    return (await find())!
  }

  /** Signs in by the code the sink received, as a person reading their mail. */
  async function signIn(d: Device, email: string) {
    const before = (await inbox(email)).length
    const started = await d.call('/v1/email/start', { email, host: 'http://localhost:5173', attested: true })
    expect(started.status).toBe(200)
    const code = (await mailed(email, before, /code is \d{6}$/)).subject.match(/(\d{6})$/)![1]
    const verified = await d.call('/v1/email/verify', { challengeId: started.body.challengeId, code })
    expect(verified.status).toBe(200)
    return verified.body as { user: { id: string; email: string }; next: 'create' | 'approve' }
  }

  test('behavior: the secure-site page, /healthz, and a signed route refusing an unsigned request', async () => {
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const unsigned = await fetch(`${server.url}/v1/email/start`, { method: 'POST', body: '{}' })
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ reason: 'malformed' })
  })

  test('behavior: a wallet made on one device is recovered on another once the person approves it from the vault\'s mail', async () => {
    const email = `${Ids.random()}@example.test`
    const first = await device()
    const { user, next } = await signIn(first, email)
    expect(next).toBe('create')
    const secret = Shares.entropy()
    const split = await Shares.splitTwice(secret)
    const address = Shares.evmAccount(secret).address
    // A and R1 sealed to the server's pinned transport key; R2 to the vault's, which only the vault process holds.
    const created = await first.call('/v1/wallet', {
      address,
      deviceShare: base64url(await Transport.up(pinned.server, 'deviceShare', first.id, split.server)),
      recovery1: base64url(await Transport.up(pinned.server, 'recovery1', first.id, split.recovery1)),
      recovery2: base64url(await Seal.seal(pinned.vault, split.recovery2, utf8(user.id))),
    })
    expect(created.status).toBe(201)
    expect(await Attest.verify(pinned.vaultSigning, { kind: 'wallet', userId: user.id, email, address }, created.body.attestation)).toBe(true)

    const second = await device()
    offset += 30_000
    const before = (await inbox(email)).length
    expect(await signIn(second, email)).toEqual({ user, next: 'approve' })
    expect(await second.call('/v1/recovery', {})).toEqual({ status: 200, body: { state: 'pending' } })

    // The person reads the vault's mail and approves on the vault's page.
    const approval = await mailed(email, before, /^Approve a new device/)
    const link = approval.text.match(/https?:\/\/\S+\/approve\?token=[\w-]+/)![0]
    expect(link.startsWith(`${publicUrl}/approve?token=`)).toBe(true)
    const token = new URL(link).searchParams.get('token')!
    const page = await fetch(`${vault.url}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, decision: 'approve' }).toString(),
    })
    expect(page.status).toBe(200)

    let ready: Json = {}
    await expect
      .poll(async () => {
        ready = (await second.call('/v1/recovery', {})).body
        return ready.state
      })
      .toBe('ready')
    const sealedR2 = fromBase64url(ready.recovery2)
    const reseal = { kind: 'reseal', userId: user.id, email, address, device: await Attest.fingerprint(second.sealPoint), sealed: await Attest.fingerprint(sealedR2) } as const
    expect(await Attest.verify(pinned.vaultSigning, reseal, ready.reseal)).toBe(true)
    const r1 = await Transport.openDown(second.seal.privateKey, 'recovery1', user.id, second.id, fromBase64url(ready.recovery1))
    const r2 = await Seal.open(second.seal.privateKey, sealedR2, utf8(user.id))
    expect(await Shares.combine(r1, r2, address)).toEqual(secret)
    await mailed(email, before, /recovered/)
  })
})

describe('spawnVault', () => {
  test('behavior: the vault runs as a child process with its own database, serves the pinned public keys, and stops', async () => {
    const vault = await Main.spawnVault({ port: 0, secretsDir: made.vault, storage: join(dir, 'spawned-vault-db') })
    const response = await fetch(`${vault.url}/public-key`)
    expect(await response.json()).toEqual({ publicKey: made.buildKeys.DOORWAY_VAULT_PUBLIC_KEY, signingKey: made.buildKeys.DOORWAY_VAULT_SIGNING_PUBLIC_KEY })
    await vault.stop()
    await expect(fetch(`${vault.url}/public-key`)).rejects.toThrow()
  }, 30_000)

  test('error: a taken port rejects, and no child is left behind', async () => {
    const taken = createServer()
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)))
    try {
      await expect(Main.spawnVault({ port, secretsDir: made.vault, storage: join(dir, 'taken-vault-db') })).rejects.toThrow(`is port ${port} taken?`)
    } finally {
      taken.close()
    }
  }, 30_000)

  test('error: the vault refuses to start from the server\'s secrets directory', async () => {
    await expect(Main.spawnVault({ port: 0, secretsDir: made.server, storage: join(dir, 'wrong-vault-db') })).rejects.toThrow('before it listened')
  }, 30_000)
})
