import { describe, expect, test } from 'vitest'
import { mnemonicToAccount } from 'viem/accounts'
import * as App from '../app.js'
import { projectId, testConfig, testDeps } from '../testing.js'

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
const now = 1_750_000_000_000
const seconds = Math.floor(now / 1000)

function setup() {
  const { deps } = testDeps(testConfig(), { now: () => now })
  const app = App.create(deps)
  const get = (path: string) => app.request(`${path}${path.includes('?') ? '&' : '?'}projectId=${projectId}`)
  const register = async (body: Record<string, unknown>) =>
    app.request(`/v1/profile/account?projectId=${projectId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { app, deps, get, register }
}

async function signed(account = alice, fields: Record<string, unknown> = {}) {
  const message = JSON.stringify({ name: 'alice', attributes: { bio: 'hi' }, timestamp: seconds, ...fields })
  return { coin_type: 60, address: account.address, message, signature: await account.signMessage({ message }) }
}

describe('POST /v1/profile/account', () => {
  test('behavior: registers a signed name, then resolves it both ways', async () => {
    const { get, register } = setup()
    const res = await register(await signed())
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    const profile = { name: 'alice.doorway.id', addresses: { 60: { address: alice.address } }, attributes: { bio: 'hi' } }
    expect(await (await get('/v1/profile/account/alice.doorway.id?apiVersion=2')).json()).toEqual(profile)
    expect(await (await get('/v1/profile/account/ALICE')).json()).toEqual(profile)
    expect(await (await get(`/v1/profile/reverse/${alice.address.toLowerCase()}?sender=${alice.address}&apiVersion=2`)).json()).toEqual([profile])
    expect(await (await get(`/v1/profile/reverse/${bob.address}`)).json()).toEqual([])
  })

  test('behavior: the owner may register again (new attributes); another address gets 409', async () => {
    const { get, register } = setup()
    await register(await signed())
    expect((await register(await signed(alice, { attributes: { bio: 'new' } }))).status).toBe(200)
    expect((await (await get('/v1/profile/account/alice')).json()).attributes).toEqual({ bio: 'new' })
    const res = await register(await signed(bob))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ message: 'Name alice.doorway.id is registered to another address' })
  })

  test('error: a signature by someone else, or over another message, is 401', async () => {
    const { register } = setup()
    const body = await signed()
    const byBob = await signed(bob)
    for (const signature of [byBob.signature, (await signed(alice, { name: 'alice2' })).signature]) {
      const res = await register({ ...body, signature })
      expect(res.status).toBe(401)
      expect((await res.json()).message).toMatch(/signature/)
    }
    expect((await register({ ...body, signature: '0x1234' })).status).toBe(401)
  })

  test.each([
    ['an old timestamp', { timestamp: seconds - 601 }, 'more than 10 minutes old'],
    ['a future timestamp', { timestamp: seconds + 300 }, 'in the future'],
    ['a millisecond timestamp', { timestamp: now + 0.5 }, 'Unix seconds'],
    ['a short name', { name: 'abc' }, 'Invalid name'],
    ['a name with dots', { name: 'al.ice' }, 'Invalid name'],
    ['another zone', { name: 'alice.other.id' }, 'Invalid name'],
    ['non-string attributes', { attributes: { n: 1 } }, 'attributes'],
  ])('error: %s is 400', async (_, fields, message) => {
    const { register } = setup()
    const res = await register(await signed(alice, fields))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain(message)
  })

  test('behavior: a timestamp 9 minutes old is accepted', async () => {
    const { register } = setup()
    expect((await register(await signed(alice, { timestamp: seconds - 540 }))).status).toBe(200)
  })

  test.each([
    ['coin_type', { coin_type: -1 }],
    ['address', { address: 'nope' }],
    ['message', { message: 'not json' }],
    ['signature', { signature: 'zz' }],
  ])('param: a bad %s is 400', async (_, fields) => {
    const { register } = setup()
    const res = await register({ ...(await signed()), ...fields })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).not.toMatch(/at .*\.ts/)
  })

  test('error: projectId is required', async () => {
    const { app } = setup()
    expect((await app.request('/v1/profile/account', { method: 'POST', body: JSON.stringify(await signed()) })).status).toBe(400)
  })
})

describe('GET /v1/profile/account/:name', () => {
  test('error: unknown names are 404 with a message; invalid names 400', async () => {
    const { get } = setup()
    const res = await get('/v1/profile/account/nobody.doorway.id')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Name nobody.doorway.id is not registered' })
    expect((await get('/v1/profile/account/a_b')).status).toBe(400)
  })
})

describe('GET /v1/profile/reverse/:address', () => {
  test('param: the address must be an EVM address', async () => {
    const { get } = setup()
    expect((await get('/v1/profile/reverse/0x123')).status).toBe(400)
  })
})

describe('GET /v1/profile/suggestions/:name', () => {
  test('behavior: the name when free, then free numbered variants', async () => {
    const { get, register } = setup()
    expect(await (await get('/v1/profile/suggestions/alice')).json()).toMatchInlineSnapshot(`
      {
        "suggestions": [
          {
            "name": "alice.doorway.id",
            "registered": false,
          },
          {
            "name": "alice1.doorway.id",
            "registered": false,
          },
          {
            "name": "alice2.doorway.id",
            "registered": false,
          },
          {
            "name": "alice3.doorway.id",
            "registered": false,
          },
        ],
      }
    `)
    await register(await signed())
    await register(await signed(alice, { name: 'alice2' }))
    const names = (await (await get('/v1/profile/suggestions/Alice?zone=doorway.id')).json()).suggestions.map((s: { name: string }) => s.name)
    expect(names).toEqual(['alice1.doorway.id', 'alice3.doorway.id', 'alice4.doorway.id', 'alice5.doorway.id'])
  })

  test.each([['abc'], ['with space'], ['under_score']])('param: %s is not a valid name (400)', async (name) => {
    const { get } = setup()
    const res = await get(`/v1/profile/suggestions/${encodeURIComponent(name)}`)
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe('Invalid name: at least 4 characters, only letters, digits and hyphens')
  })

  test('param: only the doorway.id zone is served', async () => {
    const { get } = setup()
    expect((await get('/v1/profile/suggestions/alice?zone=eth')).status).toBe(400)
  })
})
