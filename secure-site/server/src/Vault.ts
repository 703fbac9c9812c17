/**
 * The vault (docs/embedded-wallet.md §2): a process of its own (`--role=vault`) holding the private
 * key R2 is sealed to. It re-seals R2 to a device's ephemeral key when, and only when, the secure-site
 * server's ticket says so: signed by the server's ticket key, fresh, for exactly this sealed share and
 * this device key, used once. It never returns R2 in clear and keeps no data but spent ticket ids. In
 * production the key lives in an HSM, KMS or TEE. `import * as Vault from './Vault.js'`.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import { Hono } from 'hono'
import * as Ticket from './Ticket.js'

export type Options = {
  /** The vault's ECDH P-256 private key (R2 is sealed to its public half). */
  key: CryptoKey
  /** The vault's public key, served so an operator can pin it in the secure-site build. */
  publicKey: Uint8Array
  /** The secure-site server's ticket key (public half). */
  ticketKey: CryptoKey
  now(): number
}

export function app(options: Options) {
  const { key, ticketKey, now } = options
  // Spent ticket ids until they expire: a ticket opens one re-seal.
  const spent = new Map<string, number>()
  const app = new Hono()

  app.get('/public-key', (c) => c.json({ publicKey: Base64url.encode(options.publicKey) }))

  app.post('/reseal', async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined
    const { ticket, signature, sealed, device } = body ?? {}
    if (![ticket, signature, sealed, device].every((v) => typeof v === 'string' && v.length <= 4096))
      return c.json({ message: 'Expected ticket, signature, sealed and device as base64url strings' }, 400)
    const claims = await Ticket.read(ticketKey, ticket as string, signature as string, now())
    if (!claims) return c.json({ message: 'The ticket is not valid' }, 401)
    for (const [jti, exp] of spent) if (exp <= now()) spent.delete(jti)
    if (spent.has(claims.jti)) return c.json({ message: 'The ticket was already used' }, 401)
    // Text that is not base64url cannot be the share or key the ticket names.
    const [sealedBytes, deviceKey] = [decoded(sealed as string), decoded(device as string)]
    if (!sealedBytes || !deviceKey || claims.sealed !== (await Ticket.fingerprint(sealedBytes)) || claims.device !== (await Ticket.fingerprint(deviceKey)))
      return c.json({ message: 'The ticket is for another share or device' }, 401)
    spent.set(claims.jti, claims.exp)
    const aad = new TextEncoder().encode(claims.userId)
    try {
      const share = await Seal.open(key, sealedBytes, aad)
      const resealed = await Seal.seal(deviceKey, share, aad)
      share.fill(0)
      return c.json({ sealed: Base64url.encode(resealed) })
    } catch {
      return c.json({ message: 'The share or the device key is not valid' }, 400)
    }
  })

  return app
}

/** The bytes, or undefined for text that is not base64url. */
function decoded(text: string): Uint8Array | undefined {
  try {
    return Base64url.decode(text)
  } catch {
    return undefined
  }
}

export type ResealRequest = { ticket: string; signature: string; sealed: string; device: string }

/** The vault as the secure-site server calls it: `reseal` answers R2 sealed to the device's key. */
export type Client = { reseal(body: ResealRequest): Promise<{ sealed: string }> }

/** The vault did not answer, or answered 5xx: the server says 503, and the code can be asked again. */
export class Unavailable extends Error {}

/** An HTTP client for the vault process; `fetcher` is the in-process app's fetch in tests. */
export function client(url: string, fetcher: (request: Request) => Response | Promise<Response> = fetch, timeoutMs = 10_000): Client {
  return {
    async reseal(body) {
      const request = new Request(new URL('/reseal', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
      const response = await Promise.resolve(fetcher(request)).catch((error: unknown) => {
        throw new Unavailable(`The vault at ${url} did not answer`, { cause: error })
      })
      const answer = (await response.json().catch(() => undefined)) as { sealed?: unknown; message?: unknown } | undefined
      if (response.status >= 500) throw new Unavailable(`The vault answered ${response.status}`)
      // A refused ticket is the server's own fault, never the device's: it becomes a logged 500.
      if (!response.ok || typeof answer?.sealed !== 'string') throw new Error(`The vault refused the re-seal: ${response.status} ${String(answer?.message)}`)
      return { sealed: answer.sealed }
    },
  }
}
