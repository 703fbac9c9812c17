/**
 * The two processes as `npm start` runs them: the server over real HTTP with its PGlite directory, SMTP
 * to the devnet sink and the vault over HTTP; and the vault as a child process.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as MailSink from '@doorway/devnet/mailSink'
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Main from './main.js'
import * as Secrets from './secrets.js'

let dir: string
let vaultPublicKey: string
// Both processes' clock, moved past the 30 s resend throttle instead of waiting it out.
let offset = 0
const now = () => Date.now() + offset
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doorway-secure-main-'))
  ;({ vaultPublicKey } = await Secrets.ensureDev(join(dir, 'secrets')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('start and startVault', () => {
  let sink: MailSink.start.ReturnType
  let vault: Main.Running
  let server: Main.Running
  beforeAll(async () => {
    await mkdir(join(dir, 'static'))
    await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>secure</title>')
    sink = await MailSink.start({ smtpPort: 0, httpPort: 0 })
    vault = await Main.startVault({ host: '127.0.0.1', port: 0, secretsDir: join(dir, 'secrets') }, { env: {}, now })
    server = await Main.start(
      {
        host: '127.0.0.1',
        port: 0,
        storage: { kind: 'embedded', dir: join(dir, 'db') },
        secretsDir: join(dir, 'secrets'),
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

  async function device() {
    const pair = await Stamp.generateKey()
    const id = Ids.random()
    const call = async (path: string, body: unknown) => {
      const text = JSON.stringify(body)
      const sig = await Stamp.sign(pair.privateKey, { method: 'POST', path, body: text, deviceId: id, now: now() })
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { [Stamp.header]: sig, 'content-type': 'application/json' }, body: text })
      return { status: response.status, body: (await response.json()) as Record<string, any> }
    }
    expect((await call('/v1/devices', { deviceId: id, publicKey: await Stamp.exportPublicKey(pair.publicKey) })).status).toBe(201)
    return call
  }

  /** Signs in by the code the sink received, as a person reading their mail. */
  async function signIn(call: Awaited<ReturnType<typeof device>>, email: string) {
    const inbox = async () => ((await (await fetch(`${sink.url}/messages?to=${email}`)).json()) as { messages: MailSink.Message[] }).messages
    const before = (await inbox()).length
    const started = await call('/v1/email/start', { email, host: 'http://localhost:5173' })
    expect(started.status).toBe(200)
    const mail = async () => {
      const messages = await inbox()
      return messages.length > before ? messages.at(-1)!.subject.match(/code is (\d{6})/)?.[1] : undefined
    }
    await expect.poll(mail).toMatch(/^\d{6}$/)
    const ephemeral = await Seal.generateKeyPair()
    const verified = await call('/v1/email/verify', { challengeId: started.body.challengeId, code: await mail(), device: base64url(await Seal.exportPublicKey(ephemeral.publicKey)) })
    expect(verified.status).toBe(200)
    return { user: verified.body.user as { id: string }, wallet: verified.body.wallet as Record<string, string>, ephemeral }
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

  test('behavior: a wallet made on one device is recovered on another through the vault process', async () => {
    const email = `${Ids.random()}@example.test`
    const first = await device()
    const { user } = await signIn(first, email)
    const secret = Shares.entropy()
    const split = await Shares.splitTwice(secret)
    const address = Shares.evmAccount(secret).address
    // Sealed to the key the build pins, which only the vault process holds.
    const sealed = await Seal.seal(fromBase64url(vaultPublicKey), split.recovery2, new TextEncoder().encode(user.id))
    const created = await first('/v1/wallet', { address, deviceShare: base64url(split.server), recovery1: base64url(split.recovery1), recovery2: base64url(sealed) })
    expect(created.status).toBe(201)

    const second = await device()
    offset += 30_000
    const recovered = await signIn(second, email)
    const r2 = await Seal.open(recovered.ephemeral.privateKey, fromBase64url(recovered.wallet.recovery2!), new TextEncoder().encode(user.id))
    expect(await Shares.combine(fromBase64url(recovered.wallet.recovery1!), r2, address)).toEqual(secret)
  })
})

describe('spawnVault', () => {
  test('behavior: the vault runs as a child process, serves the pinned public key, and stops', async () => {
    const vault = await Main.spawnVault({ port: 0, secretsDir: join(dir, 'secrets') })
    const response = await fetch(`${vault.url}/public-key`)
    expect(await response.json()).toEqual({ publicKey: vaultPublicKey })
    await vault.stop()
    await expect(fetch(`${vault.url}/public-key`)).rejects.toThrow()
  }, 30_000)

  test('error: a taken port rejects, and no child is left behind', async () => {
    const taken = createServer()
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)))
    try {
      await expect(Main.spawnVault({ port, secretsDir: join(dir, 'secrets') })).rejects.toThrow(`is port ${port} taken?`)
    } finally {
      taken.close()
    }
  }, 30_000)
})
