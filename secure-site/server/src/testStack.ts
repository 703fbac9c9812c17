/**
 * The embedded wallet's two servers in one process, for tests (docs/embedded-wallet.md §2): the
 * secure-site server and the vault, each with its own keys and database (PGlite in memory unless a
 * test gives the server's storage), a shared recording mailer standing in for the person's mailbox, and
 * the person's side of an approval (open the vault's link, press a button). The secure-site's own
 * client takes `fetch` and the build keys, exactly as the browser build pins them.
 * `import * as TestStack from '@doorway/secure-site/server/testStack'`.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import * as Seal from '@doorway/secure-site/common/Seal'
import { PGlite } from '@electric-sql/pglite'
import * as App from './app.js'
import * as Envelope from './Envelope.js'
import * as Limits from './limits.js'
import type * as Mail from './mail.js'
import type * as Social from './social/providers.js'
import * as Embedded from './storage/embedded.js'
import type { Storage } from './storage/Storage.js'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'
import * as VaultTesting from './vault/testing.js'

export const vaultUrl = 'http://vault.test'

/** Everything both processes hold, made once per stack: what a hostile test may hand to an attacker. */
export type Keys = {
  server: App.Deps['secrets']
  ticket: CryptoKeyPair
  vault: CryptoKeyPair
  vaultSigning: CryptoKeyPair
  /** What the secure-site build pins. */
  build: { vaultPublicKey: Uint8Array; vaultSigningKey: Uint8Array; serverPublicKey: Uint8Array }
}

export async function keys(): Promise<Keys> {
  const ticket = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
  const vault = await Seal.generateKeyPair()
  const vaultSigning = (await crypto.subtle.generateKey(Attest.algorithm, true, ['sign', 'verify'])) as CryptoKeyPair
  const transport = await Seal.generateKeyPair()
  return {
    server: {
      kek: await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32))),
      pepper: crypto.getRandomValues(new Uint8Array(32)),
      ticketKey: ticket.privateKey,
      transportKey: transport.privateKey,
    },
    ticket,
    vault,
    vaultSigning,
    build: {
      vaultPublicKey: await Seal.exportPublicKey(vault.publicKey),
      vaultSigningKey: new Uint8Array(await crypto.subtle.exportKey('raw', vaultSigning.publicKey)),
      serverPublicKey: await Seal.exportPublicKey(transport.publicKey),
    },
  }
}

export type Stack = Awaited<ReturnType<typeof start>>

/** A test file's stack over its own in-memory PGlite; its fields are set once the file's tests start. */
export type Place = { db: PGlite; storage: Storage; stack: Stack }

/**
 * One stack for a test file: started in `before` and closed in `after` (vitest's beforeAll and afterAll,
 * passed in so this module needs no test runner). Read the place's fields inside the tests.
 */
export function perFile(before: (run: () => Promise<void>, timeoutMs?: number) => void, after: (run: () => Promise<void>) => void): Place {
  const place = {} as Place
  before(async () => {
    place.db = new PGlite()
    place.storage = await Embedded.fromPGlite(place.db)
    place.stack = await start({ storage: place.storage })
  }, 60_000) // PGlite starts slowly on a loaded machine
  after(async () => {
    await place.stack.close()
    await place.storage.close()
  })
  return place
}

export async function start(
  options: { storage?: Storage; now?: () => number; keys?: Keys; log?: (message: string, error?: unknown) => void; limits?: Limits.Overrides; social?: Social.Config } = {},
) {
  const now = options.now ?? Date.now
  const made = options.keys ?? (await keys())
  const mails: Mail.Mail[] = []
  const mailer: Mail.Mailer = { send: async (mail) => void mails.push(mail) }
  const log = options.log ?? (() => {})
  const vaultPlace = await VaultTesting.memory()
  const vault = Vault.app({
    key: made.vault.privateKey,
    publicKey: made.build.vaultPublicKey,
    signingKey: made.vaultSigning.privateKey,
    signingPublicKey: made.build.vaultSigningKey,
    ticketKey: made.ticket.publicKey,
    store: vaultPlace.store,
    mailer,
    publicUrl: vaultUrl,
    now,
    log,
  })
  const ownStorage = options.storage ? undefined : await Embedded.fromPGlite(new PGlite())
  const storage = options.storage ?? ownStorage!
  const deps: App.Deps = {
    storage,
    secrets: made.server,
    vault: Vault.client(vaultUrl, (request) => vault.fetch(request)),
    mailer,
    now,
    log,
    limits: options.limits ?? Limits.off,
    ...(options.social && { social: options.social }),
  }
  const app = App.app(deps)
  const fetch = ((input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init))) as typeof globalThis.fetch

  /** The newest approval link the vault mailed to `email`. */
  const approvalLink = (email: string) => {
    const mail = mails.filter((m) => m.to === email && /\/approve\?token=/.test(m.text)).at(-1)
    const link = mail?.text.match(/https?:\/\/\S+\/approve\?token=[\w-]+/)?.[0]
    if (!link) throw new Error(`No approval link was mailed to ${email}`)
    return link
  }
  /** The person opens the link and presses a button: the vault's answer page. */
  const decide = async (link: string, decision: 'approve' | 'deny' = 'approve') => {
    const token = new URL(link).searchParams.get('token') ?? ''
    const response = await vault.fetch(
      new Request(new URL('/approve', vaultUrl), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, decision }).toString() }),
    )
    return { status: response.status, text: await response.text() }
  }

  return {
    app,
    vault,
    vaultStore: vaultPlace,
    storage,
    deps,
    keys: made,
    mails,
    fetch,
    approvalLink,
    decide,
    /** The person approves the newest link mailed to `email`. */
    approve: (email: string) => decide(approvalLink(email)),
    async close() {
      await ownStorage?.close()
      await vaultPlace.dispose()
    },
  }
}
