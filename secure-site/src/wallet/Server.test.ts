import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Ids from '@doorway/shared/Ids'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Key } from './Device.js'
import * as Server from './Server.js'

let device: Key
beforeAll(async () => {
  device = { id: Ids.random(), keyPair: await Stamp.generateKey(), sealPair: await Seal.generateKeyPair(), enrolled: true }
})

/** A client whose server answers `status` and `body`, and the requests it was sent. */
function client(status: number, body: unknown) {
  const requests: Request[] = []
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push(new Request(input, init))
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  }) as typeof globalThis.fetch
  return { server: Server.client({ base: 'http://127.0.0.1:5175', device: () => device, fetch }), requests }
}

describe('send', () => {
  test('behavior: the route\'s method and path, its body as JSON, signed by the device key; the answer as it came', async () => {
    const answer = { challengeId: Ids.random(), expiresAt: 1_800_000_000_000 }
    const { server, requests } = client(200, answer)
    expect(await server.send('POST /v1/email/start', { email: 'a@example.test', host: 'http://localhost:5173', attested: true })).toEqual(answer)
    const [request] = requests
    expect([request!.method, request!.url]).toEqual(['POST', 'http://127.0.0.1:5175/v1/email/start'])
    const body = await request!.text()
    expect(JSON.parse(body)).toEqual({ email: 'a@example.test', host: 'http://localhost:5173', attested: true })
    const publicKey = await Stamp.exportPublicKey(device.keyPair.publicKey)
    const verdict = await Stamp.verify({
      header: request!.headers.get(Stamp.header),
      request: { method: 'POST', path: '/v1/email/start', body },
      publicKeyOf: async () => publicKey,
      nonces: Stamp.memoryNonces(),
      now: Date.now(),
    })
    expect(verdict).toEqual({ ok: true, deviceId: device.id })
  })

  test('behavior: a GET route is sent without a body', async () => {
    const { server, requests } = client(200, { entries: [], head: null })
    expect(await server.send('GET /v1/audit', {})).toEqual({ entries: [], head: null })
    expect([requests[0]!.method, requests[0]!.body]).toEqual(['GET', null])
  })

  test('error: a refusal is a ServerError with the status, message, reason and numbers the server gave', async () => {
    const { server } = client(401, { message: 'The code is not right', reason: 'wrong', attemptsLeft: 3, retryAfter: 'soon' })
    const error = await server.send('POST /v1/email/verify', { challengeId: Ids.random(), code: '123456' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Server.ServerError)
    expect(error).toMatchObject({ message: 'The code is not right', status: 401, reason: 'wrong', attemptsLeft: 3, retryAfter: undefined })
  })

  test('error: an answer the route table does not allow is refused, and is no ServerError', async () => {
    const { server } = client(200, { challengeId: 'not an id', expiresAt: 1 })
    const error = await server.send('POST /v1/email/start', { email: 'a@example.test', host: 'http://localhost:5173', attested: false }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(Server.ServerError)
    expect(String(error)).toContain('POST /v1/email/start')
  })

  test('behavior: a recovery answers pending, or ready with both shares sealed and the vault\'s statements', async () => {
    expect(await client(200, { state: 'pending' }).server.send('POST /v1/recovery', {})).toEqual({ state: 'pending' })
    const sealed = Base64url.encode(new Uint8Array(SecureSite.sealedShareBytes))
    const signature = Base64url.encode(new Uint8Array(SecureSite.signatureBytes))
    const ready = { state: 'ready', address: `0x${'ab'.repeat(20)}`, recovery1: sealed, recovery2: sealed, wallet: signature, reseal: signature }
    expect(await client(200, ready).server.send('POST /v1/recovery', {})).toEqual(ready)
  })

  // docs/embedded-wallet.md §2: no share crosses in clear; an answer that holds one is not what the table says.
  const clear = Base64url.encode(new Uint8Array(SecureSite.shareBytes))
  const sealed = Base64url.encode(new Uint8Array(SecureSite.sealedShareBytes))
  const signature = Base64url.encode(new Uint8Array(SecureSite.signatureBytes))
  const ready = { state: 'ready', address: `0x${'ab'.repeat(20)}`, recovery1: sealed, recovery2: sealed, wallet: signature, reseal: signature }
  test.each([
    ['POST /v1/session', { user: { id: Ids.random(), email: 'a@example.test' }, address: `0x${'ab'.repeat(20)}`, deviceShare: clear }],
    ['POST /v1/export', { deviceShare: clear }],
    ['POST /v1/recovery', { ...ready, recovery1: clear }],
    ['POST /v1/recovery', { ...ready, recovery2: clear }],
  ] as const)('error: %s answering a share in clear is refused', async (endpoint, answer) => {
    const error = await client(200, answer).server.send(endpoint, {} as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(Server.ServerError)
    expect(String(error)).toContain(endpoint)
  })
})
