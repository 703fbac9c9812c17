/** JSON-RPC over fetch to a chain's node: what the wallet forwards and what it uses to fill transactions. */
import { ProviderError } from './Errors.js'

let nextId = 1

export async function request<T = unknown>(rpcUrl: string, method: string, params: unknown = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  })
  const body = (await res.json().catch(() => undefined)) as
    | { result?: T; error?: { code: number; message: string; data?: unknown } }
    | undefined
  if (body?.error) throw new ProviderError(body.error.code, body.error.message, body.error.data)
  if (!res.ok || !body || !('result' in body))
    throw new ProviderError(-32603, `RPC ${rpcUrl} answered ${res.status} to ${method}`)
  return body.result as T
}
