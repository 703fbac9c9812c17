/**
 * The vault (docs/embedded-wallet.md §2): a process of its own (`--role=vault`) holding the private key
 * R2 is sealed to. It trusts the person, not the server: it re-seals R2 only to a device key the person
 * approved from a link the vault mailed them itself, to the email registered with the wallet. The
 * server's tickets (Ticket.ts) only say that the server asks, once, within 2 minutes, for what. The
 * vault signs what it vouches for (the wallet's address, each re-seal, the audit chain's head) with its
 * own key, whose public half the secure-site build pins (common/Attest.ts), so a device refuses a wallet
 * the server swapped, and sees a log rewritten in the server's database.
 * In production its keys live in an HSM, KMS or TEE. `import * as Vault from './Vault.js'`.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as Http from './http.js'
import type * as Mail from './mail.js'
import * as Approve from './vault/approve.js'
import * as Routes from './vault/routes.js'
import type { Store } from './vault/store.js'

export type Options = {
  /** ECDH P-256 private: opens R2. */
  key: CryptoKey
  /** Its point, served so an operator can pin it in the secure-site build. */
  publicKey: Uint8Array
  /** ECDSA P-256 private: signs the vault's statements (common/Attest.ts). */
  signingKey: CryptoKey
  /** Its point, pinned in the secure-site build too. */
  signingPublicKey: Uint8Array
  /** The secure-site server's ticket key, public half. */
  ticketKey: CryptoKey
  store: Store
  /** The vault sends its own mails: the server cannot choose where an approval link goes. */
  mailer: Mail.Mailer
  /** Where the person's browser reaches the vault, e.g. http://127.0.0.1:8791. */
  publicUrl: string
  now(): number
  log?(message: string, error?: unknown): void
}

/** What the route modules use: the options, the log, and mail sent without waiting. */
export type Context = Options & {
  log(message: string, error?: unknown): void
  /** Sends without waiting for SMTP; a failure is logged, never the route's. */
  mail(mail: Mail.Mail): void
}

export const bodyLimitBytes = 16 * 1024

export function app(options: Options) {
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`[doorway:vault] ${message}`, error ?? ''))
  // async, so a mailer that throws rejects like one that fails later.
  const send = async (mail: Mail.Mail) => options.mailer.send(mail)
  const context: Context = { ...options, log, mail: (mail) => void send(mail).catch((error: unknown) => log('mail not sent', error)) }
  const app = new Hono()

  app.use('*', async (c, next) => {
    await next()
    c.header('cache-control', 'no-store')
    c.header('x-content-type-options', 'nosniff')
    c.header('referrer-policy', 'no-referrer')
  })
  app.use(
    '*',
    bodyLimit({
      maxSize: bodyLimitBytes,
      onError: (c) => (isPage(c.req.path) ? Approve.refuse(c, 'tooLarge') : c.json({ message: 'The body is larger than 16 KB', reason: 'tooLarge' }, 413)),
    }),
  )
  app.get('/public-key', (c) => c.json({ publicKey: Base64url.encode(options.publicKey), signingKey: Base64url.encode(options.signingPublicKey) }))
  app.route('/', Routes.routes(context))
  app.route('/', Approve.routes(context))
  app.notFound((c) => c.json({ message: 'Not found' }, 404))
  // Answers say what was wrong with the request; a 500 is only ever the vault's own fault, and logged.
  app.onError((error, c) => {
    if (error instanceof Http.HttpError) return Http.respond(c, error)
    log(`${c.req.method} ${c.req.path} failed`, error)
    return isPage(c.req.path) ? Approve.refuse(c, 'error') : c.json({ message: 'Internal error' }, 500)
  })
  return app
}

const isPage = (path: string) => path === '/approve' || path === '/approve.css'

// The client: the vault as the secure-site server calls it.

type Signed = { ticket: string; signature: string }
export type RegisterRequest = Signed & { email: string; address: string; sealed: string }
export type ApprovalRequest = Signed & { device: string; origin: string; attested: boolean; browser: string }
export type ResealRequest = Signed & { sealed: string; device: string }
export type RevokeRequest = Signed & { device: string }
export type HeadRequest = Signed & { seq: number; hash: string }
/** The vault's signed statement of an audit chain's head (common/Attest.ts `auditHead`). */
export type SignedHead = { seq: number; hash: string; signature: string }

export type Client = {
  /** The wallet's attestation (Attest `wallet` statement), the same for the same values again. */
  register(body: RegisterRequest): Promise<{ attestation: string }>
  /** `approved` when the person approved this device already; `pending` once the mail is on its way. */
  requestApproval(body: ApprovalRequest): Promise<{ state: 'approved' } | { state: 'pending'; expiresAt: number }>
  /** R2 sealed to the device key, the vault's statement of it, and the wallet's attestation. */
  reseal(body: ResealRequest): Promise<{ sealed: string; attestation: string; wallet: string }>
  revoke(body: RevokeRequest): Promise<void>
  /** Keeps the audit chain's new head; Refused `rewritten` when it contradicts one kept (docs/embedded-wallet.md §10). */
  keepHead(body: HeadRequest): Promise<void>
  /** The vault's signed statement of the highest head it keeps for the ticket's user, or null. */
  readHead(body: Signed): Promise<SignedHead | null>
}

/** The vault did not answer, or answered 5xx: the server says 503, and the person can try again. */
export class Unavailable extends Error {}

/** The vault refused (4xx): `reason` says why (`pending`, `denied`, `notApproved`, `throttled`, `registered`, …). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason: string | undefined,
    readonly retryAfter: number | undefined,
  ) {
    super(message)
  }
}

/** An HTTP client for the vault process; `fetcher` is the in-process app's fetch in tests. Every call times out. */
export function client(url: string, fetcher: (request: Request) => Response | Promise<Response> = fetch, timeoutMs = 10_000): Client {
  const post = (path: string, body: object) => call(url, path, body, fetcher, timeoutMs)
  return {
    async register(body) {
      const answer = await post('/v1/register', body)
      if (typeof answer.attestation !== 'string') throw new Unavailable('The vault answered a registration without an attestation')
      return { attestation: answer.attestation }
    },
    async requestApproval(body) {
      const answer = await post('/v1/approvals', body)
      if (answer.state === 'approved') return { state: 'approved' }
      if (answer.state === 'pending' && typeof answer.expiresAt === 'number') return { state: 'pending', expiresAt: answer.expiresAt }
      throw new Unavailable('The vault answered an approval request without a state')
    },
    async reseal(body) {
      const { sealed, attestation, wallet } = await post('/v1/reseal', body)
      if (typeof sealed !== 'string' || typeof attestation !== 'string' || typeof wallet !== 'string') throw new Unavailable('The vault answered a re-seal without its fields')
      return { sealed, attestation, wallet }
    },
    async revoke(body) {
      await post('/v1/revoke', body)
    },
    async keepHead(body) {
      await post('/v1/audit-head', body)
    },
    async readHead(body) {
      const { head } = await post('/v1/audit-head/read', body)
      if (head === null) return null
      const { seq, hash, signature } = (typeof head === 'object' && head !== null ? head : {}) as Record<string, unknown>
      if (typeof seq !== 'number' || typeof hash !== 'string' || typeof signature !== 'string') throw new Unavailable('The vault answered a head without its fields')
      return { seq, hash, signature }
    },
  }
}

/** The answer's JSON object; Unavailable when the vault did not answer or failed, Refused for a 4xx. */
async function call(url: string, path: string, body: object, fetcher: (request: Request) => Response | Promise<Response>, timeoutMs: number): Promise<Record<string, unknown>> {
  const request = new Request(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const response = await Promise.resolve(fetcher(request)).catch((error: unknown) => {
    throw new Unavailable(`The vault at ${url} did not answer`, { cause: error })
  })
  if (response.status >= 500) throw new Unavailable(`The vault answered ${response.status}`)
  const answer: unknown = await response.json().catch(() => undefined)
  const fields = typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Record<string, unknown>) : {}
  if (!response.ok) {
    const { message, reason, retryAfter } = fields
    throw new Refused(response.status, `The vault refused: ${response.status} ${String(message)}`, typeof reason === 'string' ? reason : undefined, typeof retryAfter === 'number' ? retryAfter : undefined)
  }
  return fields
}
