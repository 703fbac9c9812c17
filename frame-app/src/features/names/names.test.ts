import type * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { errors } from '@doorway/shared/Texts'
import { namesText } from '@doorway/shared/texts/names'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { hexToString, type Hex } from 'viem'
import { afterEach, beforeEach, describe, expect, type MockInstance, test, vi } from 'vitest'
import type { Connector } from '../../core/connectors/Connector.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { modalStateAtom } from '../../host/modalState.js'
import {
  availabilityAtom,
  checkName,
  chooseSuggestionAtom,
  nameLookupDelayMs,
  nameTextAtom,
  registerNameAtom,
  registrationAtom,
  typeNameAtom,
} from './nameForm.js'
import { accountIdentityAtom, identityOfAtom, refreshIdentityAtom } from './names.js'
import { historyAtom } from '../../core/router.js'
import type { Route } from '../../core/routes.js'

const owner = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const signature: Hex = `0x${'ab'.repeat(65)}`
const now = Date.UTC(2026, 0, 2, 3, 4, 5)

const anvil = (caipNetworkId: Caip.ChainId) => ({ caipNetworkId, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true })
const config = { projectId: 'p', sdkType: 'appkit', sdkVersion: 'test', networks: [anvil('eip155:31337')], features: {} } as unknown as Protocol.Config

/** The api's answers (spec §7) by endpoint, as `globalThis.fetch` gives them to the api client. */
type Reply = { status: number; body?: unknown }
const profile = (name: string, attributes: Record<string, string> = {}) => ({ name, addresses: { '60': { address: owner } }, attributes })
let replies: {
  reverse: (address: string) => Reply
  identity: (address: string) => Reply
  suggestions: (label: string) => Reply
  register: Reply
}
let fetchMock: MockInstance<typeof fetch>

/** The free names of the api's suggestions: the label itself unless `taken` has it, then numbered ones. */
function suggest(label: string, taken: readonly string[] = []) {
  const names = [label, `${label}1`, `${label}2`, `${label}3`, `${label}4`].map((l) => `${l}.doorway.id`).filter((n) => !taken.includes(n))
  return { status: 200, body: { suggestions: names.slice(0, 4).map((name) => ({ name, registered: false })) } }
}

function replyTo(url: URL): Reply {
  const [, ...path] = url.pathname.split('/').map(decodeURIComponent)
  const last = path.at(-1)!
  if (url.pathname.startsWith('/v1/profile/reverse/')) return replies.reverse(last)
  if (url.pathname.startsWith('/v1/identity/')) return replies.identity(last)
  if (url.pathname.startsWith('/v1/profile/suggestions/')) return replies.suggestions(last)
  if (url.pathname === '/v1/profile/account') return replies.register
  return { status: 404, body: { message: `no route ${url.pathname}` } }
}
/** The urls the api client fetched under `path`. */
const fetched = (path: string) => fetchMock.mock.calls.map(([input]) => new URL(String(input))).filter((url) => url.pathname.startsWith(path))
/** The JSON bodies the api client posted to `path`. */
const posted = (path: string) =>
  fetchMock.mock.calls.filter(([input]) => new URL(String(input)).pathname === path).map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>)

beforeEach(() => {
  vi.useFakeTimers({ now })
  replies = {
    reverse: () => ({ status: 200, body: [] }),
    identity: () => ({ status: 200, body: { name: null, avatar: null } }),
    suggestions: (label) => suggest(label),
    register: { status: 200, body: { success: true } },
  }
  fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (init?.signal?.aborted) throw init.signal.reason
    const { status, body } = replyTo(new URL(String(input)))
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
})
afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
})

/** The wallet's answers by method: a function of the params, which may throw or return a promise. */
type Answers = Record<string, (params: unknown) => unknown>

/** A store connected with a fake wallet on `chainId` (null: not connected), on RegisterAccountName. */
function setup(options: { chainId?: Caip.ChainId; connected?: boolean; wallet?: Answers; history?: Route[] } = {}) {
  const store = createStore()
  const answers: Answers = { personal_sign: () => signature, ...options.wallet }
  const request = vi.fn(async ({ method, params }: Protocol.RpcRequest) => {
    const answer = answers[method]
    if (!answer) throw Errors.unsupportedMethod()
    return answer(params)
  })
  const connector: Connector = { id: 'test.wallet', name: 'Test Wallet', type: 'ANNOUNCED', namespaces: ['eip155'], request }
  store.set(configAtom, config)
  if (options.connected !== false) store.set(accountAtom, { connector, address: owner, chainId: options.chainId ?? 'eip155:31337' })
  store.set(historyAtom, options.history ?? [{ view: 'Account' }, { view: 'RegisterAccountName' }])
  const calls = (method: string) => request.mock.calls.filter(([r]) => r.method === method).map(([r]) => r.params)
  return { store, request, connector, calls }
}
type Store = ReturnType<typeof setup>['store']

/** Mounts the account's name (as the host's state subscription does) and waits until it is known. */
async function knownIdentity(store: Store) {
  const unsubscribe = store.sub(accountIdentityAtom, () => {})
  await vi.waitFor(() => expect(store.get(accountIdentityAtom).status).not.toBe('loading'))
  return { identity: store.get(accountIdentityAtom), unsubscribe }
}

describe('checkName', () => {
  test.each([
    ['', { status: 'empty' }],
    ['   ', { status: 'empty' }],
    ['abc', { status: 'invalid', rule: 'tooShort' }],
    ['abc.doorway.id', { status: 'invalid', rule: 'tooShort' }],
    ['al ice', { status: 'invalid', rule: 'characters' }],
    ['alice!', { status: 'invalid', rule: 'characters' }],
    ['ålice', { status: 'invalid', rule: 'characters' }],
    ['a_b', { status: 'invalid', rule: 'characters' }],
    ['alice.other.id', { status: 'invalid', rule: 'characters' }],
    ['alice', { status: 'valid', label: 'alice', name: 'alice.doorway.id' }],
    ['Alice-42', { status: 'valid', label: 'alice-42', name: 'alice-42.doorway.id' }],
    ['ALICE.DOORWAY.ID', { status: 'valid', label: 'alice', name: 'alice.doorway.id' }],
    [' bob1 ', { status: 'valid', label: 'bob1', name: 'bob1.doorway.id' }],
  ])('param: %j is %j (spec §5: at least 4 letters, digits or hyphens)', (text, check) => {
    expect(checkName(text)).toEqual(check)
  })

  test('behavior: each rule has its message in the catalogue', () => {
    expect(namesText.rules).toEqual({ tooShort: 'A name has at least 4 characters.', characters: 'Only letters, digits and hyphens (-) are allowed.' })
  })
})

describe('typeNameAtom', () => {
  test('behavior: a valid name is looked up once typing pauses, and is available when the api suggests it', async () => {
    const { store } = setup()
    const done = store.set(typeNameAtom, 'Alice')
    expect(store.get(nameTextAtom)).toBe('Alice')
    expect(store.get(availabilityAtom)).toEqual({ status: 'checking', name: 'alice.doorway.id' })
    await vi.advanceTimersByTimeAsync(nameLookupDelayMs - 1)
    expect(fetched('/v1/profile/suggestions/')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await done
    const [url] = fetched('/v1/profile/suggestions/')
    expect(url?.pathname).toBe('/v1/profile/suggestions/alice')
    expect(url?.searchParams.get('zone')).toBe('doorway.id')
    expect(store.get(availabilityAtom)).toEqual({ status: 'available', name: 'alice.doorway.id' })
  })

  test('behavior: a taken name lists the free names like it', async () => {
    replies.suggestions = (label) => suggest(label, ['alice.doorway.id'])
    const { store } = setup()
    await store.set(typeNameAtom, 'alice', { delayMs: 0 })
    expect(store.get(availabilityAtom)).toEqual({
      status: 'taken',
      name: 'alice.doorway.id',
      suggestions: ['alice1.doorway.id', 'alice2.doorway.id', 'alice3.doorway.id', 'alice4.doorway.id'],
    })
  })

  test('behavior: a name against the rule is not looked up', async () => {
    const { store } = setup()
    await store.set(typeNameAtom, 'al!ce', { delayMs: 0 })
    await store.set(typeNameAtom, 'ali', { delayMs: 0 })
    expect(store.get(availabilityAtom)).toEqual({ status: 'idle' })
    expect(fetched('/v1/profile/suggestions/')).toEqual([])
  })

  test('behavior: typing on cancels the waiting lookup; only the last name is asked for', async () => {
    const { store } = setup()
    const first = store.set(typeNameAtom, 'alic')
    await vi.advanceTimersByTimeAsync(nameLookupDelayMs / 2)
    const second = store.set(typeNameAtom, 'alice')
    await vi.advanceTimersByTimeAsync(nameLookupDelayMs)
    await Promise.all([first, second])
    expect(fetched('/v1/profile/suggestions/').map((u) => u.pathname)).toEqual(['/v1/profile/suggestions/alice'])
  })

  test('behavior: typing on aborts the lookup in flight, and its late answer is ignored', async () => {
    let answer!: () => void
    fetchMock.mockImplementationOnce(
      (_input, init) =>
        new Promise((resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))
          answer = () => resolve(new Response(JSON.stringify(suggest('bobby', ['bobby.doorway.id']).body), { status: 200 }))
        }),
    )
    const { store } = setup()
    const first = store.set(typeNameAtom, 'bobby', { delayMs: 0 })
    await vi.advanceTimersByTimeAsync(0)
    const [, init] = fetchMock.mock.calls[0]!
    await store.set(typeNameAtom, 'bobby2', { delayMs: 0 })
    answer()
    await first
    expect(init?.signal?.aborted).toBe(true)
    expect(store.get(availabilityAtom)).toEqual({ status: 'available', name: 'bobby2.doorway.id' })
  })

  test.each([
    ['the api reason for a refusal', { status: 400, body: { message: 'Invalid zone: only doorway.id is served' } }, 'Invalid zone: only doorway.id is served'],
    ['the spec §8 fallback for a server error', { status: 503, body: { message: 'upstream down' } }, errors.fetchNameSuggestionsFailed],
    ['the spec §8 fallback for an answer of the wrong shape', { status: 200, body: { suggestions: 'alice' } }, errors.fetchNameSuggestionsFailed],
  ])('error: a failed lookup shows %s', async (_, reply, message) => {
    replies.suggestions = () => reply
    const { store } = setup()
    await store.set(typeNameAtom, 'alice', { delayMs: 0 })
    expect(store.get(availabilityAtom)).toEqual({ status: 'error', name: 'alice.doorway.id', message })
  })
})

describe('chooseSuggestionAtom', () => {
  test('behavior: a suggestion fills the field with its label and is looked up at once', async () => {
    const { store } = setup()
    await store.set(chooseSuggestionAtom, 'alice2.doorway.id')
    expect(store.get(nameTextAtom)).toBe('alice2')
    expect(store.get(availabilityAtom)).toEqual({ status: 'available', name: 'alice2.doorway.id' })
  })
})

describe('accountIdentityAtom', () => {
  test('behavior: the account name and avatar from the reverse lookup; the host is told profileName and profileImage', async () => {
    replies.reverse = () => ({ status: 200, body: [profile('alice.doorway.id', { avatar: 'https://img.test/alice.png' })] })
    const { store } = setup()
    expect(store.get(accountIdentityAtom)).toEqual({ status: 'loading', address: owner })
    const { identity } = await knownIdentity(store)
    expect(identity).toEqual({ status: 'ready', address: owner, identity: { name: 'alice.doorway.id', imageUrl: 'https://img.test/alice.png' } })
    const [url] = fetched('/v1/profile/reverse/')
    expect(url?.pathname).toBe(`/v1/profile/reverse/${owner}`)
    expect([url?.searchParams.get('sender'), url?.searchParams.get('apiVersion')]).toEqual([owner, '2'])
    expect(store.get(modalStateAtom)).toMatchObject({ profileName: 'alice.doorway.id', profileImage: 'https://img.test/alice.png' })
  })

  test('behavior: an account without a name has none, and the host is told no profile', async () => {
    const { store } = setup()
    const { identity } = await knownIdentity(store)
    expect(identity).toEqual({ status: 'ready', address: owner, identity: undefined })
    expect(Object.keys(store.get(modalStateAtom))).not.toContain('profileName')
  })

  test.each([
    ['an http avatar is not shown', 'http://img.test/a.png', undefined, undefined],
    ['an inline image is shown in the frame, and not sent to the host', 'data:image/png;base64,AAAA', 'data:image/png;base64,AAAA', undefined],
    ['a script is not shown', 'javascript:alert(1)', undefined, undefined],
  ])('param: %s', async (_, avatar, imageUrl, profileImage) => {
    replies.reverse = () => ({ status: 200, body: [profile('alice.doorway.id', { avatar })] })
    const { store } = setup()
    const { identity } = await knownIdentity(store)
    expect(identity).toMatchObject({ identity: { name: 'alice.doorway.id', imageUrl } })
    expect(store.get(modalStateAtom).profileImage).toBe(profileImage)
  })

  test('behavior: a name is kept 5 minutes (spec §9); the chain changing or Account showing again reads nothing until then', async () => {
    replies.reverse = () => ({ status: 200, body: [profile('alice.doorway.id')] })
    const { store } = setup()
    await knownIdentity(store)
    store.set(accountAtom, { ...store.get(accountAtom)!, chainId: 'eip155:31338' })
    store.set(refreshIdentityAtom)
    // (waiting for the first answer took a few fake milliseconds too)
    await vi.advanceTimersByTimeAsync(Constants.identityCacheMs - 1_000)
    store.set(refreshIdentityAtom)
    expect(store.get(accountIdentityAtom)).toMatchObject({ status: 'ready', identity: { name: 'alice.doorway.id' } })
    expect(fetched('/v1/profile/reverse/')).toHaveLength(1)

    replies.reverse = () => ({ status: 200, body: [profile('alice2.doorway.id')] })
    await vi.advanceTimersByTimeAsync(1_000)
    store.set(refreshIdentityAtom)
    await vi.waitFor(() => expect(store.get(accountIdentityAtom)).toMatchObject({ status: 'ready', identity: { name: 'alice2.doorway.id' } }))
    expect(fetched('/v1/profile/reverse/')).toHaveLength(2)
  })

  test('behavior: Account showing while the name is on its way asks nothing more', async () => {
    const { store } = setup()
    store.sub(accountIdentityAtom, () => {})
    store.set(refreshIdentityAtom)
    await knownIdentity(store)
    expect(fetched('/v1/profile/reverse/')).toHaveLength(1)
  })

  test('behavior: another account is read, and shows loading rather than the previous name', async () => {
    replies.reverse = (address) => ({ status: 200, body: address === owner ? [profile('alice.doorway.id')] : [profile('bobby.doorway.id')] })
    const { store } = setup()
    await knownIdentity(store)
    store.set(accountAtom, { ...store.get(accountAtom)!, address: other })
    expect(store.get(accountIdentityAtom)).toEqual({ status: 'loading', address: other })
    expect(store.get(modalStateAtom).profileName).toBeUndefined()
    await vi.waitFor(() => expect(store.get(accountIdentityAtom)).toMatchObject({ status: 'ready', address: other, identity: { name: 'bobby.doorway.id' } }))
  })

  test('behavior: disconnected, there is no name', () => {
    const { store } = setup({ connected: false })
    expect(store.get(accountIdentityAtom)).toEqual({ status: 'none' })
    expect(fetched('/v1/profile/reverse/')).toEqual([])
  })

  test.each([
    ['the api reason', { status: 400, body: { message: 'Invalid address: expected a 0x-prefixed 40-hex-digit address' } }, 'Invalid address: expected a 0x-prefixed 40-hex-digit address'],
    ['the spec §8 fallback', { status: 500, body: {} }, errors.fetchNamesForAddressFailed],
  ])('error: a failed lookup is an error with %s; Account showing again asks again', async (_, reply, message) => {
    replies.reverse = () => reply
    const { store } = setup()
    const { identity } = await knownIdentity(store)
    expect(identity).toEqual({ status: 'error', address: owner, message })
    replies.reverse = () => ({ status: 200, body: [] })
    store.set(refreshIdentityAtom)
    await vi.waitFor(() => expect(store.get(accountIdentityAtom)).toEqual({ status: 'ready', address: owner, identity: undefined }))
  })
})

describe('identityOfAtom', () => {
  test('behavior: what another address is called, as the account sees it (spec §7 identity with sender), kept 5 minutes', async () => {
    replies.identity = () => ({ status: 200, body: { name: 'bobby.doorway.id', avatar: 'https://img.test/b.png' } })
    const { store } = setup()
    await expect(store.set(identityOfAtom, other)).resolves.toEqual({ name: 'bobby.doorway.id', imageUrl: 'https://img.test/b.png' })
    const [url] = fetched('/v1/identity/')
    expect(url?.pathname).toBe(`/v1/identity/${other}`)
    expect(url?.searchParams.get('sender')).toBe(owner)
    await vi.advanceTimersByTimeAsync(Constants.identityCacheMs - 1)
    await expect(store.set(identityOfAtom, other.toLowerCase())).resolves.toMatchObject({ name: 'bobby.doorway.id' })
    expect(fetched('/v1/identity/')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    await store.set(identityOfAtom, other)
    expect(fetched('/v1/identity/')).toHaveLength(2)
  })

  test('behavior: an address without a name has none (and that is kept too)', async () => {
    const { store } = setup()
    await expect(store.set(identityOfAtom, other)).resolves.toBeUndefined()
    await expect(store.set(identityOfAtom, other)).resolves.toBeUndefined()
    expect(fetched('/v1/identity/')).toHaveLength(1)
  })

  test('error: a failed lookup rejects with the spec §8 fallback, and is not kept', async () => {
    replies.identity = () => ({ status: 502, body: { message: 'bad gateway' } })
    const { store } = setup()
    await expect(store.set(identityOfAtom, other)).rejects.toThrow(errors.fetchNamesForAddressFailed)
    replies.identity = () => ({ status: 200, body: { name: 'bobby.doorway.id', avatar: null } })
    await expect(store.set(identityOfAtom, other)).resolves.toEqual({ name: 'bobby.doorway.id', imageUrl: undefined })
  })
})

describe('registerNameAtom', () => {
  /** The form with `text` typed and looked up. */
  async function typed(store: Store, text = 'alice') {
    await store.set(typeNameAtom, text, { delayMs: 0 })
  }

  test('behavior: the wallet signs the registration message, the api stores it, and the account is called by the name at once', async () => {
    const { store, calls } = setup()
    await knownIdentity(store)
    await typed(store, 'Alice')
    await expect(store.set(registerNameAtom)).resolves.toEqual({ status: 'registered', name: 'alice.doorway.id' })

    const [hex, address] = calls('personal_sign')[0] as [Hex, string]
    expect(address).toBe(owner)
    const message = hexToString(hex)
    const signed = JSON.parse(message) as Record<string, unknown>
    expect(Object.keys(signed)).toEqual(['name', 'attributes', 'timestamp', 'nonce'])
    expect(signed).toMatchObject({ name: 'alice.doorway.id', attributes: {}, timestamp: now / 1000 })
    expect(signed.nonce).toMatch(/^[0-9a-f]{32}$/)
    // ENSIP-11 coin type of chain 31337: 0x80000000 | 31337
    expect(posted('/v1/profile/account')).toEqual([{ coin_type: 2147514985, address: owner, message, signature }])

    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'RegisterAccountNameSuccess', name: 'alice.doorway.id' }])
    expect(store.get(accountIdentityAtom)).toMatchObject({ status: 'ready', identity: { name: 'alice.doorway.id' } })
    expect(store.get(modalStateAtom).profileName).toBe('alice.doorway.id')
    expect(fetched('/v1/profile/reverse/')).toHaveLength(1)
    expect([store.get(nameTextAtom), store.get(availabilityAtom), store.get(registrationAtom)]).toEqual(['', { status: 'idle' }, { status: 'idle' }])
  })

  test('behavior: the form says what is going on: the wallet asking, then the api posting', async () => {
    let sign!: (signature: string) => void
    let post!: () => void
    const { store } = setup({ wallet: { personal_sign: () => new Promise((resolve) => (sign = resolve)) } })
    await typed(store)
    const outcome = store.set(registerNameAtom)
    expect(store.get(registrationAtom)).toEqual({ status: 'signing', name: 'alice.doorway.id' })
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (post = () => resolve(new Response(JSON.stringify({ success: true }), { status: 200 })))))
    sign(signature)
    await vi.waitFor(() => expect(store.get(registrationAtom)).toEqual({ status: 'posting', name: 'alice.doorway.id' }))
    post()
    await expect(outcome).resolves.toMatchObject({ status: 'registered' })
  })

  test('behavior: pressing again while the wallet asks asks nothing more', async () => {
    let sign!: (signature: string) => void
    const { store, calls } = setup({ wallet: { personal_sign: () => new Promise((resolve) => (sign = resolve)) } })
    await typed(store)
    const first = store.set(registerNameAtom)
    await expect(store.set(registerNameAtom)).resolves.toEqual({ status: 'busy' })
    sign(signature)
    await first
    expect(calls('personal_sign')).toHaveLength(1)
    expect(posted('/v1/profile/account')).toHaveLength(1)
  })

  const declined = () => {
    throw Errors.userRejected()
  }
  const broken = () => {
    throw Errors.fromCode(4100)
  }
  test.each([
    ['no active network', { chainId: 'eip155:1' as const }, undefined, 'refused', errors.networkNotFound],
    ['no account', { connected: false }, undefined, 'refused', errors.addressOrAuthConnectorNotFound],
    ['a name against the rule', {}, 'al!ce', 'refused', namesText.rules.characters],
    ['a name too short', {}, 'ali', 'refused', namesText.rules.tooShort],
    ['no name', {}, '', 'refused', namesText.rules.tooShort],
    ['a name the lookup found taken', {}, 'taken', 'refused', 'taken.doorway.id is taken'],
    ['a signature the person declined (4001)', { wallet: { personal_sign: declined } }, undefined, 'rejected', errors.signatureDeclined],
    ['a wallet that fails otherwise', { wallet: { personal_sign: broken } }, undefined, 'failed', 'Error registering name alice.doorway.id'],
    ['a wallet that answers no signature', { wallet: { personal_sign: () => null } }, undefined, 'failed', 'Error registering name alice.doorway.id'],
  ])('error: %s is refused with its message, before anything is posted', async (_, options, text, status, message) => {
    replies.suggestions = (label) => suggest(label, ['taken.doorway.id'])
    const { store, calls } = setup(options)
    await typed(store, text ?? 'alice')
    await expect(store.set(registerNameAtom)).resolves.toEqual({ status, message })
    expect(store.get(registrationAtom)).toEqual({ status: 'failed', message })
    expect(store.get(historyAtom).at(-1)).toEqual({ view: 'RegisterAccountName' })
    if (status === 'refused') expect(calls('personal_sign')).toEqual([])
    expect(posted('/v1/profile/account')).toEqual([])
  })

  test.each([
    ['the api reason for a name taken (409)', { status: 409, body: { message: 'Name alice.doorway.id is registered to another address' } }, 'Name alice.doorway.id is registered to another address'],
    ['the api reason for a bad signature (401)', { status: 401, body: { message: 'The signature is not the address’s signature of the message' } }, 'The signature is not the address’s signature of the message'],
    ['the spec §8 fallback for a server error', { status: 500, body: { message: 'Internal' } }, 'Error registering name alice.doorway.id'],
    ['the spec §8 fallback for success false', { status: 200, body: { success: false } }, 'Error registering name alice.doorway.id'],
  ])('error: a registration the api refuses shows %s, and the account keeps no name', async (_, reply, message) => {
    replies.register = reply
    const { store } = setup()
    await knownIdentity(store)
    await typed(store)
    await expect(store.set(registerNameAtom)).resolves.toEqual({ status: 'failed', message })
    expect(store.get(registrationAtom)).toEqual({ status: 'failed', message })
    expect(store.get(accountIdentityAtom)).toMatchObject({ status: 'ready', identity: undefined })
    expect(store.get(nameTextAtom)).toBe('alice')
  })

  test('behavior: on failure the modal returns to RegisterAccountName (spec §4), from a view the wallet put on top', async () => {
    const { store } = setup({ wallet: { personal_sign: declined } })
    await typed(store)
    store.set(historyAtom, [{ view: 'Account' }, { view: 'RegisterAccountName' }, { view: 'ApproveTransaction', requestId: 'r1' }])
    await store.set(registerNameAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'RegisterAccountName' }])
  })

  test('behavior: typing again clears the failure', async () => {
    const { store } = setup({ wallet: { personal_sign: declined } })
    await typed(store)
    await store.set(registerNameAtom)
    await typed(store, 'alice2')
    expect(store.get(registrationAtom)).toEqual({ status: 'idle' })
  })
})
