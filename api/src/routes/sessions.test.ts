import { describe, expect, test } from 'vitest'
import { mnemonicToAccount } from 'viem/accounts'
import * as App from '../app.js'
import type { SessionRecord } from '../storage/Storage.js'
import { projectId, testConfig, testDeps } from '../testing.js'
import { revokeMessage } from './sessions.js'

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })

const session = (pci: string): SessionRecord => ({
  address: alice.address,
  pci,
  chainId: 'eip155:31337',
  permissions: [{ type: 'native-token-recurring-allowance' }],
  expiry: 1_900_000_000,
  revoked: false,
  createdAt: 1_750_000_000_000,
})

async function setup() {
  const { deps } = testDeps(testConfig())
  await deps.storage.sessions.put(session('pci-1'))
  await deps.storage.sessions.put(session('pci-2'))
  const app = App.create(deps)
  const revoke = (address: string, body: unknown) =>
    app.request(`/v1/sessions/${address}/revoke?projectId=${projectId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { app, deps, revoke }
}

describe('GET /v1/sessions/:address', () => {
  test('behavior: lists the address’s sessions, in any address case', async () => {
    const { app } = await setup()
    const res = await app.request(`/v1/sessions/${alice.address.toLowerCase()}?projectId=${projectId}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ pcis: [session('pci-1'), session('pci-2')] })
    expect(await (await app.request(`/v1/sessions/${bob.address}?projectId=${projectId}`)).json()).toEqual({ pcis: [] })
  })

  test('param: a bad address is 400, a missing projectId 400', async () => {
    const { app } = await setup()
    expect((await app.request(`/v1/sessions/alice?projectId=${projectId}`)).status).toBe(400)
    expect((await app.request(`/v1/sessions/${alice.address}`)).status).toBe(400)
  })
})

describe('POST /v1/sessions/:address/revoke', () => {
  test('behavior: the address’s signature revokes the session', async () => {
    const { app, revoke } = await setup()
    const signature = await alice.signMessage({ message: revokeMessage('pci-1') })
    const res = await revoke(alice.address, { pci: 'pci-1', signature })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    const { pcis } = await (await app.request(`/v1/sessions/${alice.address}?projectId=${projectId}`)).json()
    expect(pcis.map((s: SessionRecord) => [s.pci, s.revoked])).toEqual([['pci-1', true], ['pci-2', false]])
    // already revoked: nothing active to revoke
    expect((await revoke(alice.address, { pci: 'pci-1', signature })).status).toBe(404)
  })

  test('error: another signer, or a signature over another pci, is 401 and revokes nothing', async () => {
    const { deps, revoke } = await setup()
    for (const signature of [await bob.signMessage({ message: revokeMessage('pci-1') }), await alice.signMessage({ message: revokeMessage('pci-2') })]) {
      const res = await revoke(alice.address, { pci: 'pci-1', signature })
      expect(res.status).toBe(401)
      expect((await res.json()).message).toMatch(/signature/)
    }
    expect((await deps.storage.sessions.list(alice.address)).every((s) => !s.revoked)).toBe(true)
  })

  test('error: an unknown session is 404', async () => {
    const { revoke } = await setup()
    const res = await revoke(alice.address, { pci: 'nope', signature: await alice.signMessage({ message: revokeMessage('nope') }) })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: `No active session nope for ${alice.address}` })
  })

  test.each([
    ['no pci', { signature: '0x12' }],
    ['no signature', { pci: 'pci-1' }],
    ['a non-hex signature', { pci: 'pci-1', signature: 'abc' }],
  ])('param: %s is 400', async (_, body) => {
    const { revoke } = await setup()
    expect((await revoke(alice.address, body)).status).toBe(400)
  })
})
