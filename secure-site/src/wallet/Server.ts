/**
 * The secure-site's client for its own server (secure-site/server/API.md): same origin, every call an
 * endpoint of its table (shared/src/contracts/secureSite.ts), typed from the table and its answer
 * checked with the table's `answers`, every request signed by the device key (Stamp), every request
 * cancellable. Refusals come back as ServerError with
 * the server's status, reason and retryAfter, so the modal can say exactly what happened.
 * `import * as Server from './Server.js'`.
 */
import * as Stamp from '@doorway/secure-site/common/Stamp'
import type * as Contract from '@doorway/shared/Contract'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import type { Key } from './Device.js'

export class ServerError extends Error {
  override readonly name = 'ServerError'
  constructor(
    message: string,
    readonly status: number,
    readonly reason?: string,
    readonly retryAfter?: number,
    readonly attemptsLeft?: number,
  ) {
    super(message)
  }
}

export type Endpoint = Contract.Endpoint<SecureSite.Table>
/** The route the table declares at an endpoint: what its body and its answer are. */
export type Route<E extends Endpoint> = Contract.At<SecureSite.Table, E>

export type Client = {
  /**
   * Sends a route of the table by its endpoint (`'POST /v1/session'`; no route has path params), signed by
   * the device key: its answer checked with the table's, a refusal thrown as a ServerError.
   */
  send<E extends Endpoint>(endpoint: E, body: Contract.Body<Route<E>>, signal?: AbortSignal): Promise<Contract.Result<Route<E>>>
}

export function client(options: { base: string; device: () => Key; fetch?: typeof fetch }): Client {
  const { base, device } = options
  const fetcher = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const send = async <E extends Endpoint>(endpoint: E, body: Contract.Body<Route<E>>, signal?: AbortSignal): Promise<Contract.Result<Route<E>>> => {
    const [method, path] = endpoint.split(' ') as [Route<E>['method'], string]
    const text = method === 'GET' ? '' : JSON.stringify(body)
    const { id, keyPair } = device()
    const sig = await Stamp.sign(keyPair.privateKey, { method, path, body: text, deviceId: id })
    const response = await fetcher(new URL(path, base), {
      method,
      headers: { [Stamp.header]: sig, ...(method !== 'GET' && { 'content-type': 'application/json' }) },
      ...(method !== 'GET' && { body: text }),
      ...(signal && { signal }),
      // The server is this origin; nothing about the dapp travels with the request.
      referrerPolicy: 'no-referrer',
      credentials: 'omit',
    })
    const json: unknown = await response.json().catch(() => ({}))
    if (!response.ok) throw refusal(response.status, json as Record<string, unknown>)
    // An answer the table does not allow is no answer: the modal says the server is unavailable.
    if (!(SecureSite.answers[endpoint] as (value: unknown) => boolean)(json)) throw new Error(`The answer to ${endpoint} is not what the route table says`)
    return json as Contract.Result<Route<E>>
  }
  return { send }
}

function refusal(status: number, json: Record<string, unknown>): ServerError {
  const number = (x: unknown) => (typeof x === 'number' ? x : undefined)
  return new ServerError(
    typeof json.message === 'string' ? json.message : `HTTP ${status}`,
    status,
    typeof json.reason === 'string' ? json.reason : undefined,
    number(json.retryAfter),
    number(json.attemptsLeft),
  )
}
