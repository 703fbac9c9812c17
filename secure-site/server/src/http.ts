/**
 * The server's HTTP pieces (API.md Conventions): errors as `{ message, reason?, retryAfter?, attemptsLeft? }` with a
 * 4xx status, and the routes of the table (shared/src/contracts/secureSite.ts) registered, their bodies
 * checked (400 naming the field) and their answers typed. `import * as Http from './http.js'`.
 */
import * as Contract from '@doorway/shared/Contract'
import type { Context, Hono } from 'hono'

export type Status = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503

/** An answer the client caused or can act on; anything else is a 500 without details. */
export class HttpError extends Error {
  constructor(
    readonly status: Status,
    message: string,
    readonly extra: { reason?: string; retryAfter?: number; attemptsLeft?: number } = {},
  ) {
    super(message)
  }
}

export function respond(c: Context, error: HttpError) {
  if (error.extra.retryAfter !== undefined) c.header('retry-after', String(error.extra.retryAfter))
  return c.json({ message: error.message, ...error.extra }, error.status)
}

export const badRequest = (message: string) => new HttpError(400, message)

/** The body as a JSON object, or 400. */
export function object(text: string): Record<string, unknown> {
  try {
    const body: unknown = text === '' ? undefined : JSON.parse(text)
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>
  } catch {
    // not JSON: refused below, as any other body that is no object
  }
  throw badRequest('Expected a JSON object body')
}

/**
 * The fields of a JSON object body (`object`) as the route table declares them
 * (shared/src/contracts/secureSite.ts), checked in their declared order: the first refused is a 400
 * with its field's text.
 */
export function fields<F extends Contract.Fields>(declared: F | undefined, body: Record<string, unknown>): Contract.Checked<F> {
  const checked = Contract.check(declared, (name) => body[name])
  if ('invalid' in checked) throw badRequest(checked.invalid)
  return checked.values
}

/** A route's body: 400 when it is no JSON object, else its declared fields, checked. */
export function body<R extends Contract.Route>(route: R, text: string): Contract.Checked<NonNullable<R['body']>> {
  return fields(route.body ?? {}, object(text)) as Contract.Checked<NonNullable<R['body']>>
}

/** Registers the handler of a route of the table at its method and path. */
export function on(app: Hono, route: Contract.Route, handler: (c: Context) => Promise<Response>): void {
  app.on(route.method, [route.path], handler)
}

/** The route's answer: its result as JSON, with the route's success status unless `status` says another. */
export function answer<R extends Contract.Route>(c: Context, route: R, result: Contract.Result<R>, status: 200 | 201 | 202 = route.status ?? 200): Response {
  return c.json(result as object, status)
}

/** Bytes of a P-256 public key (a checked field of 65 bytes) that are an uncompressed point on the curve. */
export async function point(raw: Uint8Array, name: string): Promise<Uint8Array> {
  const valid =
    raw[0] === 0x04 &&
    (await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'ECDH', namedCurve: 'P-256' }, true, []).then(
      () => true,
      () => false,
    ))
  if (!valid) throw badRequest(`Invalid ${name}: expected an uncompressed P-256 point`)
  return raw
}
