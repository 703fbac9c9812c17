/**
 * The secure-site's client for its own server (secure-site/server/API.md): same origin, every request
 * signed by the device key (Stamp), every request cancellable. Refusals come back as ServerError with
 * the server's status, reason and retryAfter, so the modal can say exactly what happened.
 * `import * as Server from './Server.js'`.
 */
import * as Stamp from '../../server/src/Stamp.js'
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

export type Client = {
  post<T>(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<T>
  get<T>(path: string, signal?: AbortSignal): Promise<T>
}

export function client(options: { base: string; device: () => Key; fetch?: typeof fetch }): Client {
  const { base, device } = options
  const fetcher = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const send = async <T>(method: 'GET' | 'POST', path: string, body: string, signal?: AbortSignal): Promise<T> => {
    const { id, keyPair } = device()
    const sig = await Stamp.sign(keyPair.privateKey, { method, path, body, deviceId: id })
    const response = await fetcher(new URL(path, base), {
      method,
      headers: { [Stamp.header]: sig, ...(method === 'POST' && { 'content-type': 'application/json' }) },
      ...(method === 'POST' && { body }),
      ...(signal && { signal }),
      // The server is this origin; nothing about the dapp travels with the request.
      referrerPolicy: 'no-referrer',
      credentials: 'omit',
    })
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) {
      const number = (x: unknown) => (typeof x === 'number' ? x : undefined)
      throw new ServerError(
        typeof json.message === 'string' ? json.message : `HTTP ${response.status}`,
        response.status,
        typeof json.reason === 'string' ? json.reason : undefined,
        number(json.retryAfter),
        number(json.attemptsLeft),
      )
    }
    return json as T
  }
  return {
    post: (path, body, signal) => send('POST', path, JSON.stringify(body), signal),
    get: (path, signal) => send('GET', path, '', signal),
  }
}
