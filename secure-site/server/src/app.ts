/**
 * The secure-site server (API.md, docs/embedded-wallet.md): the embedded wallet's own API on the
 * secure origin, and the built secure-site under a strict CSP. One Hono app over its dependencies, so
 * tests run it in-process with a fake clock, a recording mailer and the in-process vault.
 * `import * as App from './app.js'` → `App.app(deps)`.
 */
import type * as Stamp from '@doorway/secure-site/common/Stamp'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as Audit from './Audit.js'
import * as Auth from './auth.js'
import * as Http from './http.js'
import * as Limits from './limits.js'
import type * as Mail from './mail.js'
import * as Account from './routes/account.js'
import * as Devices from './routes/devices.js'
import * as Email from './routes/email.js'
import * as Export from './routes/export.js'
import * as Session from './routes/session.js'
import * as Social from './routes/social.js'
import * as Wallet from './routes/wallet.js'
import * as SocialPages from './social/pages.js'
import type * as SocialConfig from './social/providers.js'
import type { Storage } from './storage/Storage.js'
import * as Recovery from './routes/recovery.js'
import type * as Vault from './Vault.js'

export type Deps = {
  storage: Storage
  /** Kept outside the database (secrets.ts): KEK_A, the OTP pepper, the ticket key's private half, the transport key. */
  secrets: { kek: CryptoKey; pepper: Uint8Array; ticketKey: CryptoKey; transportKey: CryptoKey }
  vault: Vault.Client
  mailer: Mail.Mailer
  now(): number
  /** How long a route waits for the SMTP server to accept a code mail; `mailTimeoutMs` unless a test says. */
  mailTimeoutMs?: number
  /** The built secure-site, served for every other GET. */
  staticDir?: string
  /**
   * The proxies whose X-Forwarded-For hop names the client (limits.ts); none by default, so the header is
   * ignored and the socket's address is the client's.
   */
  trustedProxies?: string[]
  /** Per-network requests an hour by route group, over `Limits.limits` (a test stack or a busy network may raise them). */
  limits?: Limits.Overrides
  /** The social providers this server signs people in with (social/providers.ts); none without it. */
  social?: SocialConfig.Config
  log?(message: string, error?: unknown): void
}

/** What the routes use: the deps, the nonce store, and the audit and mail helpers. */
export type AuditKind = (typeof Audit.kinds)[keyof typeof Audit.kinds]

export type Server = Deps & {
  nonces: Stamp.Nonces
  log(message: string, error?: unknown): void
  /** Appends to the user's audit log, then tells the vault the chain's new head (routes/account.ts `anchor`). */
  audit(userId: string, kind: AuditKind, detail: Record<string, unknown>): Promise<void>
  /** Sends a notice without waiting; a mail that fails is logged, never the route's failure. */
  mail(mail: Mail.Mail): void
  /** Resolves once the SMTP server accepted the mail; rejects when it refused, or after `mailTimeoutMs`. */
  deliver(mail: Mail.Mail): Promise<void>
}

// docs/embedded-wallet.md §10: only this origin's own files run, style the page and are fetched. No inline
// script or style: the screens style through classes and the CSSOM. No form is ever submitted (the export's
// code form is handled in script). Trusted Types with no policy make every sink that turns a string into
// markup or code (innerHTML, a script's src, …) throw. csp.test.ts checks the sources use none of them.
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
  // frame-ancestors is checked against every ancestor, the dapp's top page included, so it cannot single
  // out the frame-app; the secure-site pins its parent origin in code instead.
  'frame-ancestors *',
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ')

export const bodyLimitBytes = 16 * 1024

/** Under the modal's 30 s request timeout (spec §7), so the person hears why before the modal gives up. */
export const mailTimeoutMs = 25_000

export function app(deps: Deps) {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(`[doorway:secure] ${message}`, error ?? ''))
  const timeoutMs = deps.mailTimeoutMs ?? mailTimeoutMs
  // async, so a mailer that throws rejects like one that fails later.
  const send = async (mail: Mail.Mail) => deps.mailer.send(mail)
  const server: Server = {
    ...deps,
    mailTimeoutMs: timeoutMs,
    log,
    nonces: Auth.nonces(deps),
    async audit(userId, kind, detail) {
      await deps.storage.audit.append(userId, { at: deps.now(), kind, detail })
      // docs/embedded-wallet.md §10: the vault keeps the chain's head, so a log rewritten here shows.
      await anchor(userId)
    },
    mail(mail) {
      send(mail).catch((error: unknown) => log('mail not sent', error))
    },
    async deliver(mail) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The mail server did not accept the mail within ${timeoutMs} ms`)), timeoutMs)
      })
      try {
        await Promise.race([send(mail), timeout])
      } finally {
        clearTimeout(timer)
      }
    },
  }
  const anchor = Account.anchor(server)

  const app = new Hono()
  app.use('*', async (c, next) => {
    await next()
    c.res.headers.set('content-security-policy', contentSecurityPolicy)
    c.res.headers.set('referrer-policy', 'no-referrer')
    c.res.headers.set('x-content-type-options', 'nosniff')
    // Answers carry shares, and the popup's pages a sign-in's outcome: never cached. Pages are
    // revalidated, so a new build shows at once.
    c.res.headers.set('cache-control', c.req.path.startsWith('/v1/') || c.req.path.startsWith('/oauth/') ? 'no-store' : 'no-cache')
  })
  app.use('/v1/*', bodyLimit({ maxSize: bodyLimitBytes, onError: (c) => c.json({ message: 'The body is larger than 16 KB' }, 413) }))
  // A provider's form_post answer (routes/social.ts) is a few hundred bytes.
  app.use('/oauth/*', bodyLimit({ maxSize: bodyLimitBytes, onError: (c) => c.html(SocialPages.outcomes.tooLarge().html, 413) }))
  app.use('/v1/*', Limits.middleware(server))
  Http.on(app, SecureSite.table.healthz, async (c) => Http.answer(c, SecureSite.table.healthz, { ok: true }))
  app.route('/', Devices.routes(server))
  app.route('/', Email.routes(server))
  app.route('/', Recovery.routes(server))
  app.route('/', Social.routes(server))
  app.route('/', Wallet.routes(server))
  // Before Session: its GET /v1/audit (the log with the vault's head) answers first.
  app.route('/', Account.routes(server))
  app.route('/', Session.routes(server))
  app.route('/', Export.routes(server))
  if (deps.staticDir) {
    // serveStatic refuses `..`, encoded separators and double slashes; a directory serves its index.html.
    const files = serveStatic({ root: deps.staticDir })
    // /oauth/ is the popup's (routes/social.ts): a file of the build never answers there.
    app.get('*', (c, next) => (c.req.path.startsWith('/v1/') || c.req.path.startsWith('/oauth/') ? next() : files(c, next)))
  }
  app.notFound((c) => c.json({ message: 'Not found' }, 404))
  // Answers say what was wrong with the request; a 500 is only ever the server's own fault, and logged.
  app.onError((error, c) => {
    if (error instanceof Http.HttpError) return Http.respond(c, error)
    log(`${c.req.method} ${c.req.path} failed`, error)
    return c.json({ message: 'Internal error' }, 500)
  })
  return app
}
