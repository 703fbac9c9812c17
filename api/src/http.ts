/** Shared HTTP pieces: typed errors with a status, parameter checks that answer 400 with a message. */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import type { Context } from 'hono'

/** An error that becomes an HTTP answer; anything else becomes a plain 500 without details. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 502,
    message: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HttpError(400, message)

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
  } catch {}
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
  } catch {}
  if (!Array.isArray(key) || !valid(key) || encodeCursor(key) !== value) throw badRequest('Invalid cursor')
  return key
}
