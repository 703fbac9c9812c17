/**
 * Shared HTTP pieces: typed errors with a status, the registration of a route from the api's table
 * (`on`: its fields checked, its answer typed), parameter checks that answer 400 with a message.
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Contract from '@doorway/shared/Contract'
import type { Context, Hono, MiddlewareHandler } from 'hono'

/** An error that becomes an HTTP answer; anything else becomes a plain 500 without details. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 502 | 503,
    message: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HttpError(400, message)

/** What a handler is given: the project (spec §7's common query; '' for a route without one) and the checked fields. */
export type Input<R extends Contract.Route> = {
  projectId: string
  params: Contract.Checked<R['params']>
  query: Contract.Checked<R['query']>
  body: Contract.Checked<R['body']>
}
export type Handler<R extends Contract.Route> = (input: Input<R>, c: Context) => Contract.Result<R> | Promise<Contract.Result<R>>

/**
 * Registers `route` of the table (shared/src/contracts/api.ts) on `app`: the project and the fields are
 * checked before `handler` runs, and its result is the route's JSON answer (or, for an image, the Response).
 */
export function on<R extends Contract.Route>(app: Hono, projects: Record<string, unknown>, route: R, handler: Handler<R>, ...middleware: MiddlewareHandler[]): void {
  const answer: MiddlewareHandler = async (c) => {
    const result = await handler(await input(c, projects, route), c)
    return result instanceof Response ? result : c.json(result as object, route.status ?? 200)
  }
  app.on(route.method, [route.path], ...middleware, answer)
}

/** `on` for one app and its projects: what each route module registers its routes with. */
export function register(app: Hono, projects: Record<string, unknown>) {
  return <R extends Contract.Route>(route: R, handler: Handler<R>, ...middleware: MiddlewareHandler[]) => on(app, projects, route, handler, ...middleware)
}

/**
 * The checks in the order the routes always made them: a body that may carry projectId is read first;
 * then the project, the path, the query, and the body's fields.
 */
async function input<R extends Contract.Route>(c: Context, projects: Record<string, unknown>, route: R): Promise<Input<R>> {
  let body = route.body && Object.hasOwn(route.body, 'projectId') ? await json(c) : undefined
  const projectId = route.query && Object.hasOwn(route.query, 'projectId') ? project(c, projects, body) : ''
  const params = checked(route.params, (name) => c.req.param(name))
  const query = checked(route.query, (name) => c.req.query(name))
  if (route.body) body ??= await json(c)
  return { projectId, params, query, body: checked(route.body, (name) => body?.[name]) } as Input<R>
}

function checked<F extends Contract.Fields>(fields: F | undefined, read: (name: string) => unknown): Contract.Checked<F> {
  const result = Contract.check(fields, read)
  if ('invalid' in result) throw badRequest(result.invalid)
  return result.values
}

export function address(value: string | undefined, name = 'address'): string {
  if (!Address.isEvmAddress(value) || !value!.startsWith('0x')) throw badRequest(`Invalid ${name}: expected a 0x-prefixed 40-hex-digit address`)
  return value!
}

export function chainId(value: string | undefined, name = 'chainId'): Caip.ChainId {
  if (!Caip.isChainId(value)) throw badRequest(`Invalid ${name}: expected a CAIP-2 network id like eip155:1`)
  return value
}

export function integer(value: string | undefined, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER, fallback }: { min?: number; max?: number; fallback?: number } = {}): number {
  if (value === undefined && fallback !== undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`Invalid ${name}: expected an integer from ${min} to ${max}`)
  return n
}

export function boolean(value: string | undefined): boolean {
  return value === 'true' || value === '1'
}

/**
 * The common query of spec §7: projectId, st (sdkType) and sv (sdkVersion). projectId is required; the
 * query's comes first, then the body's for the POSTs whose body carries it (spec §7: query "unless noted").
 */
export function project(c: Context, projects: Record<string, unknown>, body?: Record<string, unknown>): string {
  const fromBody = typeof body?.projectId === 'string' ? body.projectId : undefined
  const projectId = c.req.query('projectId') || fromBody
  if (!projectId) throw badRequest('Missing projectId')
  if (!Object.hasOwn(projects, projectId)) throw new HttpError(403, `Unknown projectId ${projectId}`)
  for (const name of ['st', 'sv']) {
    const value = c.req.query(name)
    if (value !== undefined && value.length > 64) throw badRequest(`Invalid ${name}: expected at most 64 characters`)
  }
  return projectId
}

/** A JSON body, or 400. */
export async function json(c: Context): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json()
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>
  } catch {
    // not JSON: the same 400 as JSON that is no object
  }
  throw badRequest('Expected a JSON object body')
}

/** A page cursor: base64url JSON of an array, opaque to clients. */
export const encodeCursor = (key: readonly unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url')

/** undefined for the first page; 400 for anything this server did not hand out (`valid` checks the array's shape). */
export function cursor<T extends unknown[]>(value: string | undefined, valid: (key: unknown[]) => key is T): T | undefined {
  if (!value) return undefined
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
  } catch {
    // not JSON: refused below with any other cursor this server did not hand out
  }
  if (!Array.isArray(key) || !valid(key) || encodeCursor(key) !== value) throw badRequest('Invalid cursor')
  return key
}
