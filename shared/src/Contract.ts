/**
 * Route tables: each HTTP server declares its routes once (method, path with `:params`, the fields of
 * its path, query and body, the success result and the error statuses), and both its handlers and its
 * clients are typed and checked from that table, as Protocol.ts does for postMessage
 * (docs/architecture.md §4). The tables live in `shared/src/contracts/<server>.ts`.
 *
 * Declaring a table: schemas come from contracts/Described.ts (Schema.ts's builders, describable as
 * JSON Schema); a field pairs a schema with the whole text of the 400 its server answers when the
 * schema refuses a value.
 *
 *   import * as Contract from '@doorway/shared/Contract'
 *   import * as S from '@doorway/shared/contracts/Described'
 *
 *   export const balance = S.object({ symbol: S.string({ max: 32 }), quantity: S.string({ max: 96 }) })
 *   export const table = {
 *     balance: Contract.route({
 *       method: 'GET',
 *       path: '/v1/account/:address/balance',
 *       summary: 'The balances of an account',
 *       params: { address: Contract.field(S.string({ pattern: /^0x[0-9a-fA-F]{40}$/ }), 'Invalid address: expected …') },
 *       query: { chainId: Contract.field(S.optional(S.string({ max: 80 })), (value) => `Invalid chainId …`) },
 *       result: S.object({ balances: S.array(balance) }),
 *       errors: [400, 403],
 *     }),
 *   }
 *   export type Table = typeof table
 *
 * A field declared without a text (`Contract.field(schema)`) is typed and documented but not checked
 * by `check`: its handler checks it, because the refusal names data (the currencies on offer) or
 * another rule owns it (the api's projectId answers 403 for an unknown project).
 *
 * A handler: `Contract.check(route.query, (name) => url.searchParams.get(name) ?? undefined)` checks
 * the fields in their declared order and gives their values typed, or the first refusal's text; the
 * answer it sends is a `Contract.Result<typeof route>`. `Contract.match(route.path, pathname)` reads a
 * path's params for a server without a router.
 *
 * A client: `Contract.path(route.path, params)` builds the URL path. A client that must not load the
 * whole table (the frame: its first script may grow by bytes, not by a table) imports only its type:
 * `Contract.Endpoint<Table>` names a route as `'GET /v1/…'`, `Contract.At<Table, 'GET /v1/…'>` is that
 * route, and `Path`, `Query`, `Body` and `Result` type the call, so the compiler checks the method, the
 * path it writes (`/v1/account/${address}/balance`), the query's names and the body against the table;
 * the answer is checked at runtime by the result's own schema, imported from the module that declares
 * it, which the table holds too (frame-app/src/api/client.ts `call`).
 *
 * Why a table of guards and not Hono's typed routes and `hc` client: hc alone is 4.7 KB minified,
 * 2.1 KB gzip (hono 4.13, esbuild), where this change may add 200 bytes to the frame's initial script;
 * hc types the client from the server's app, so the frame would depend on the api's code rather than on
 * a shared table; and it checks no answer at runtime, which the frame must (the api is another origin's
 * server). The table's guards are Schema.ts's, which the frame already ships.
 *
 * OpenAPI: contracts/JsonSchema.ts describes Described's schemas as JSON Schema 2020-12 and
 * contracts/OpenApi.ts a table as an OpenAPI 3.1 document; only servers and tests import them.
 */
import type { Infer, Schema } from './Schema.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 429 | 500 | 502 | 503

/** What a 400 says about a refused value: a fixed text, or one told from the value. */
export type Invalid = string | ((value: unknown) => string)

/** A path, query or body field; `invalid` undefined: its handler checks it (see the header). */
export type Field<T = unknown, I extends Invalid | undefined = Invalid | undefined> = { readonly schema: Schema<T>; readonly invalid: I }
export type Fields = { readonly [name: string]: Field }

export type Route = {
  readonly method: Method
  readonly path: string
  /** One line for the OpenAPI document. */
  readonly summary: string
  readonly params?: Fields
  readonly query?: Fields
  /** A JSON object body: the fields it names (keys it does not name are ignored). */
  readonly body?: Fields
  /** The success answer's JSON body; absent when the answer is not JSON (see `media`). */
  readonly result?: Schema<unknown>
  /** The success answer's media type when it is not JSON, e.g. 'image/svg+xml'. */
  readonly media?: string
  /** The success status. Default 200. */
  readonly status?: 200 | 201 | 202
  readonly errors: readonly ErrorStatus[]
}
export type Table = { readonly [name: string]: Route }

/** A route as declared, its literal method and path kept for `Endpoint`. */
export function route<const R extends Route>(route: R): R {
  return route
}

export function field<T>(schema: Schema<T>, invalid: Invalid): Field<T, Invalid>
export function field<T>(schema: Schema<T>): Field<T, undefined>
export function field<T>(schema: Schema<T>, invalid?: Invalid): Field<T> {
  return { schema, invalid }
}

// ---- types ------------------------------------------------------------------------------------------

type FieldValue<F> = F extends Field<infer T> ? T : never
type OptionalKeys<F extends Fields> = { [K in keyof F]: undefined extends FieldValue<F[K]> ? K : never }[keyof F]
/** The values of fields as their schemas type them; a field that accepts undefined is optional. */
export type Values<F extends Fields | undefined> = F extends Fields
  ? { [K in Exclude<keyof F, OptionalKeys<F>>]: FieldValue<F[K]> } & { [K in OptionalKeys<F>]?: FieldValue<F[K]> }
  : Record<never, never>
/** What `check` gives: a field it does not check is unknown. */
export type Checked<F extends Fields | undefined> = F extends Fields
  ? { [K in keyof F]: F[K] extends Field<infer T, Invalid> ? T : unknown }
  : Record<never, never>

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never
/** A route's path params, from its path. */
export type Params<R extends Route> = { [K in ParamNames<R['path']>]: string }
/** A route's query as a client writes it: any of the declared names, each value written as text. */
export type Query<R extends Route> = { [K in keyof R['query']]?: string | number | boolean | undefined }
export type Body<R extends Route> = Values<R['body']>
/** A route's path as a client writes it: each `:param` any text, e.g. `/v1/account/${string}/balance`. */
export type Path<P extends string> = P extends `${infer A}:${string}/${infer B}` ? `${A}${string}/${Path<B>}` : P extends `${infer A}:${string}` ? `${A}${string}` : P
export type Result<R extends Route> = R['result'] extends Schema<unknown> ? Infer<R['result']> : Response

/** Each route of a table named as `'GET /v1/…'`. */
export type Endpoint<T extends Table> = { [K in keyof T]: `${T[K]['method']} ${T[K]['path']}` }[keyof T]
/** The route a table declares at an endpoint. */
export type At<T extends Table, E extends Endpoint<T>> = { [K in keyof T]: E extends `${T[K]['method']} ${T[K]['path']}` ? T[K] : never }[keyof T]

// ---- servers ----------------------------------------------------------------------------------------

/**
 * The checked fields' values in their declared order, or the first refusal's text. `read` gives a
 * field's raw value: a query's text (undefined when absent), a path param, a JSON body's member.
 */
export function check<F extends Fields>(fields: F | undefined, read: (name: string) => unknown): { values: Checked<F> } | { invalid: string } {
  const values: Record<string, unknown> = {}
  for (const [name, { schema, invalid }] of Object.entries(fields ?? {})) {
    const value = read(name)
    if (invalid !== undefined && !schema(value)) return { invalid: typeof invalid === 'string' ? invalid : invalid(value) }
    values[name] = value
  }
  return { values: values as Checked<F> }
}

/** The raw (still percent-encoded) params of `pathname` if it is `template`'s path, else undefined. */
export function match(template: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = []
  const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
    names.push(name)
    return '([^/]+)'
  })
  const found = new RegExp(`^${source}$`).exec(pathname)
  return found ? Object.fromEntries(names.map((name, i) => [name, found[i + 1]!])) : undefined
}

/** Every `:name` of a route's path. */
export function paramNames(template: string): string[] {
  return [...template.matchAll(/:(\w+)/g)].map((m) => m[1]!)
}

// ---- clients ----------------------------------------------------------------------------------------

/** The route's path with each `:name` replaced by its param, percent-encoded (a param is never a path). */
export function path(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
}
