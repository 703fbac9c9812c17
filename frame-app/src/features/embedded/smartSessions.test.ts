/**
 * Smart sessions in the frame (issue 25, docs/embedded-wallet.md "Smart sessions"): a dapp's permission
 * request read before any prompt, the delegation the secure-site signs, the api's record before the dapp
 * gets its context, and the revoke from the Sessions view. On a fake smart account chunk (as in
 * smartRequests.test.ts) and a fake secure-site, whose signatures are placeholders: the secure-site and
 * the api check real ones (their own tests).
 */
import type * as Caip from '@doorway/shared/Caip'
import * as DelegationFramework from '@doorway/shared/DelegationFramework'
import * as Errors from '@doorway/shared/Errors'
import * as Permissions from '@doorway/shared/Permissions'
import { format } from '@doorway/shared/Texts'
import { embeddedText } from '@doorway/shared/texts/embedded'
import { type Hex, getAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test, vi } from 'vitest'
import * as Embedded from './embeddedConnector.js'
import type * as SmartAccountChunk from './smartAccount.js'
import * as SmartRequests from './smartRequests.js'

const smartAddress = '0x1111111111111111111111111111111111111111'
const other = '0x2222222222222222222222222222222222222222'
const sessionKey = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
const { caveatEnforcers: enforcers, ...environment } = DelegationFramework.devnet
const factoryArgs = { factory: environment.SimpleFactory, factoryData: '0x5fbfb9cf0000' } as const
const txHash = `0x${'ab'.repeat(32)}` as const
const operationHash = `0x${'0f'.repeat(32)}` as const
/** What the fake secure-site signs with: hex bytes, as the permission context encodes a signature. */
const ownerSignature = `0x${'5a'.repeat(65)}` as const
const operationSignature = `0x${'0e'.repeat(65)}` as const
const revokeSignature = `0x${'7e'.repeat(65)}` as const
const day = 86_400
/** The owner's signature as the fake account shows it while undeployed (its chunk's `wrap`: ERC-6492's wrapper, here a suffix). */
const wrapped = (signature: Hex) => `${signature}${'64'.repeat(32)}` as Hex

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** ERC-7715's native-token-periodic request for 0.01 ETH a day over 30 days, from the smart account to the session key. */
function execution(edit: (request: any) => void = () => {}) {
  const start = nowSeconds()
  const request = {
    chainId: '0x7a69',
    from: smartAddress,
    to: sessionKey.address,
    permission: { type: 'native-token-periodic', isAdjustmentAllowed: false, data: { periodAmount: '0x2386f26fc10000', periodDuration: day, startTime: start, justification: 'Top up your game wallet daily' } },
    rules: [{ type: 'expiry', data: { timestamp: start + 30 * day } }],
  }
  edit(request)
  return request
}

/** AppKit's wallet_grantPermissions request (its params[0]) for the same allowance, to the session key's public key. */
function appKit(edit: (request: any) => void = () => {}) {
  const start = nowSeconds()
  const request = {
    chainId: '0x7a69',
    address: smartAddress,
    expiry: start + 30 * day,
    signer: { type: 'keys', data: { keys: [{ type: 'secp256k1', publicKey: sessionKey.publicKey }] } },
    permissions: [{ type: 'native-token-recurring-allowance', data: { allowance: '0x2386f26fc10000', start, period: day } }],
    policies: [],
  }
  edit(request)
  return request
}

function deferred<T = void>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

type Fake = {
  /** Smart sessions on (the dapp's features.smartSessions): the context has `sessions`. */
  sessions?: boolean
  deployed?: boolean
  record?: () => Promise<void>
  prepare?: () => Promise<unknown>
  success?: boolean
  /** The chain's latest block time (unix s); the wall clock by default. */
  chainNow?: number
}

/** A context on a fake smart account chunk whose secure-site signs with the placeholders above, and a fake api record. */
function setup(fake: Fake = {}) {
  const prepared = { sender: smartAddress, callData: '0xprepared' }
  const account = {
    address: smartAddress,
    factoryArgs,
    deployed: vi.fn(async () => fake.deployed ?? false),
    now: vi.fn(async () => fake.chainNow ?? nowSeconds()),
    wrap: vi.fn(async (signature: Hex) => (fake.deployed ? signature : wrapped(signature))),
    prepare: vi.fn(fake.prepare ?? (async () => prepared)),
    json: vi.fn((operation: unknown) => ({ json: operation })),
    send: vi.fn(async () => operationHash),
    wait: vi.fn(async () => ({ success: fake.success ?? true, ...(fake.success === false && { reason: 'CannotUseADisabledDelegation' }), logs: [], receipt: { transactionHash: txHash } })),
  }
  const network = { bundlerUrl: 'http://127.0.0.1:4337', environment, enforcers }
  const on = vi.fn(async (_chainId: Caip.ChainId) => ({ account: account as unknown as SmartAccountChunk.Account, network: network as SmartAccountChunk.Network }))
  const sessions = {
    sign: vi.fn(async (_delegation: Permissions.DelegationJson, _environment: unknown, _justification: string | undefined): Promise<Hex> => ownerSignature),
    record: vi.fn(async (_chainId: Caip.ChainId, _delegation: Permissions.DelegationJson) => (fake.record ? fake.record() : undefined)),
    signRevoke: vi.fn<SmartRequests.Sessions['signRevoke']>((_chainId, _operation, _delegation, _environment, then) => then(operationSignature, revokeSignature)),
    recordRevoke: vi.fn(async (_pci: Hex, _signature: Hex) => {}),
  }
  const context: SmartRequests.Context = {
    smart: { address: smartAddress, sponsored: false, on },
    chainId: () => 'eip155:31337',
    landed: vi.fn(),
    signOperation: vi.fn(),
    signAsOwner: vi.fn(),
    // A mock's type drops signRevoke's type parameter; it calls `then` as the interface says.
    ...(fake.sessions !== false && { sessions: { ...sessions, signRevoke: sessions.signRevoke as SmartRequests.Sessions['signRevoke'] } }),
  }
  const request = (method: string, params: unknown[]) => SmartRequests.request(context, method, params)
  const revoke = (chainId: Caip.ChainId, delegation: unknown) => SmartRequests.revoke(context, chainId, delegation)
  return { context, request, revoke, account, on, sessions, prepared }
}

/** A session's signed delegation as the api keeps it (Permissions.toJson), from `delegator`. */
function signedSession(delegator: string = smartAddress): Permissions.DelegationJson {
  const grant = Permissions.fromExecutionPermission(execution())
  const unsigned = Permissions.delegation({ grant, delegator: delegator as Hex, enforcers, salt: 42n })
  return Permissions.toJson({ ...unsigned, signature: ownerSignature })
}

describe('features.smartSessions', () => {
  test.each(['wallet_grantPermissions', 'wallet_requestExecutionPermissions', 'wallet_getSupportedExecutionPermissions'])(
    'error: without smart sessions, %s is unsupported (4200) and nothing is prepared or signed',
    async (method) => {
      const { request, on, sessions } = setup({ sessions: false })
      const params = method === 'wallet_grantPermissions' ? [appKit()] : method === 'wallet_requestExecutionPermissions' ? [execution()] : []
      await expect(request(method, params)).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod })
      expect(on).not.toHaveBeenCalled()
      expect(sessions.sign).not.toHaveBeenCalled()
    },
  )

  test('behavior: wallet_getCapabilities offers `permissions` only with smart sessions on', async () => {
    const off = await setup({ sessions: false }).request('wallet_getCapabilities', [smartAddress, ['0x7a69']])
    expect(off).toEqual({ '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: false } } })
    const on = (await setup().request('wallet_getCapabilities', [smartAddress, ['0x7a69']])) as Record<string, { permissions?: { supported: boolean; permissionTypes: string[] } }>
    expect(on['0x7a69']?.permissions).toMatchObject({ supported: true, permissionTypes: expect.arrayContaining(['native-token-recurring-allowance']) })
  })

  test('behavior: wallet_getSupportedExecutionPermissions names the periodic allowances on the current chain, with an expiry rule', async () => {
    expect(await setup().request('wallet_getSupportedExecutionPermissions', [])).toEqual({
      'native-token-periodic': { chainIds: ['0x7a69'], ruleTypes: ['expiry'] },
      'erc20-token-periodic': { chainIds: ['0x7a69'], ruleTypes: ['expiry'] },
    })
  })
})

describe('wallet_requestExecutionPermissions', () => {
  test('behavior: the secure-site signs the delegation from the smart account to `to` with the grant as caveats; the api records the signed one (ERC-6492 while undeployed) before the dapp gets its context', async () => {
    const recorded = deferred()
    const { request, sessions, on } = setup({ record: () => recorded.promise })
    const asked = execution()
    let settled = false
    const answer = request('wallet_requestExecutionPermissions', [asked]).finally(() => (settled = true))

    await vi.waitFor(() => expect(sessions.record).toHaveBeenCalled())
    expect(on).toHaveBeenCalledWith('eip155:31337')
    const [unsigned, shownIn, justification] = sessions.sign.mock.calls[0]!
    expect(unsigned).toEqual({
      delegate: sessionKey.address,
      delegator: getAddress(smartAddress),
      authority: Permissions.rootAuthority,
      caveats: Permissions.caveats(Permissions.fromExecutionPermission(asked), enforcers),
      salt: expect.stringMatching(/^0x[0-9a-f]+$/),
      signature: '0x',
    })
    expect(shownIn).toEqual(environment)
    expect(justification).toBe('Top up your game wallet daily')
    const signed = { ...unsigned, signature: ownerSignature }
    expect(sessions.record).toHaveBeenCalledExactlyOnceWith('eip155:31337', { ...signed, signature: wrapped(ownerSignature) })
    // Not answered while the api has not kept it.
    await Promise.resolve()
    expect(settled).toBe(false)

    recorded.resolve()
    const [granted, ...more] = (await answer) as Record<string, unknown>[]
    expect(more).toEqual([])
    expect(granted).toEqual({ ...asked, from: smartAddress, context: expect.any(String), dependencies: [factoryArgs], delegationManager: environment.DelegationManager })
    // The DelegationManager takes the bare signature, once the dapp has run the dependencies.
    expect(Permissions.decodeContext(granted!.context as Hex)).toEqual([Permissions.fromJson(signed)])
  })

  test('behavior: once the account is deployed the api gets the bare signature, and there are no dependencies to run first', async () => {
    const { request, sessions } = setup({ deployed: true })
    const [granted] = (await request('wallet_requestExecutionPermissions', [execution()])) as Record<string, unknown>[]
    expect(sessions.record.mock.calls[0]![1].signature).toBe(ownerSignature)
    expect(granted).toMatchObject({ dependencies: [], delegationManager: environment.DelegationManager })
  })

  test('param: an allowance without a start starts at the chain’s latest block, whose clock may be behind this one', async () => {
    const chainNow = nowSeconds() - 3600
    const { request, sessions } = setup({ chainNow })
    const asked = execution((r) => delete r.permission.data.startTime)
    await request('wallet_requestExecutionPermissions', [asked])
    expect(sessions.sign.mock.calls[0]![0].caveats).toEqual(Permissions.caveats(Permissions.fromExecutionPermission(asked, { now: chainNow }), enforcers))
  })

  test('behavior: a list is answered in order, one approval per session; without `from` the answer names the smart account', async () => {
    const { request, sessions } = setup()
    const requests = [1, 2, 3, 4].map((n) => execution((r) => ((r.permission.data.periodAmount = `0x${n}`), delete r.from)))
    const answers = (await request('wallet_requestExecutionPermissions', requests)) as Record<string, unknown>[]
    expect(sessions.sign).toHaveBeenCalledTimes(4)
    expect(answers.map((a) => a.permission)).toEqual(requests.map((r) => r.permission))
    expect(answers.map((a) => a.from)).toEqual(Array(4).fill(smartAddress))
    const amounts = answers.map((a) => Permissions.fromCaveats(Permissions.decodeContext(a.context as Hex)[0]!.caveats, enforcers).permission)
    expect(amounts).toEqual([1n, 2n, 3n, 4n].map((amount) => expect.objectContaining({ period: expect.objectContaining({ amount }) })))
  })

  test('behavior: two sessions with the same limits are two delegations: their salts, and so their ids, differ', async () => {
    const { request, sessions } = setup()
    const asked = execution()
    await request('wallet_requestExecutionPermissions', [asked])
    await request('wallet_requestExecutionPermissions', [asked])
    const [first, second] = sessions.sign.mock.calls.map(([d]) => d)
    expect({ ...first, salt: '0x0' }).toEqual({ ...second, salt: '0x0' })
    expect(first!.salt).not.toBe(second!.salt)
    expect(Permissions.delegationHash(Permissions.fromJson(first))).not.toBe(Permissions.delegationHash(Permissions.fromJson(second)))
  })

  test('error: a failing record rejects the request, and the dapp gets no context', async () => {
    const down = new Error('The api did not answer')
    const { request, sessions } = setup({ record: () => Promise.reject(down) })
    const requests = [execution(), execution()]
    await expect(request('wallet_requestExecutionPermissions', requests)).rejects.toBe(down)
    // The second session is not asked for once the first could not be kept.
    expect(sessions.sign).toHaveBeenCalledTimes(1)
    expect(sessions.record).toHaveBeenCalledTimes(1)
  })

  const inAMinute = (seconds: number) => (r: any) => (r.rules[0].data.timestamp = nowSeconds() + seconds)
  test.each([
    ['no request', []],
    ['a request that is not an object', ['native-token-periodic']],
    ['a request without `to`', [execution((r) => delete r.to)]],
    ['an amount that is not hex', [execution((r) => (r.permission.data.periodAmount = '10000'))]],
    ['a stream (unsupported type)', [execution((r) => (r.permission.type = 'native-token-stream'))]],
    ['no expiry rule', [execution((r) => (r.rules = []))]],
    ['an expiry in the past', [execution(inAMinute(-10))]],
    ['an expiry under a minute away', [execution(inAMinute(30))]],
    ['an expiry more than a year away', [execution(inAMinute(Permissions.limits.maxSeconds + day))]],
    ['a list of five', Array.from({ length: 5 }, () => execution())],
    ['a good request beside a bad one', [execution(), execution((r) => (r.permission.type = 'erc20-token-stream'))]],
  ])('error: %s is an invalid request (-32602), refused before any approval', async (_, params) => {
    const { request, sessions } = setup()
    await expect(request('wallet_requestExecutionPermissions', params)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid request: /) })
    expect(sessions.sign).not.toHaveBeenCalled()
    expect(sessions.record).not.toHaveBeenCalled()
  })

  test('error: a request for another chain is refused (5710) before any approval', async () => {
    const { request, sessions } = setup()
    await expect(request('wallet_requestExecutionPermissions', [execution((r) => (r.chainId = '0x1'))])).rejects.toMatchObject({ code: 5710 })
    expect(sessions.sign).not.toHaveBeenCalled()
  })

  test('error: a request `from` another account is refused (4100) before any approval', async () => {
    const { request, sessions } = setup()
    await expect(request('wallet_requestExecutionPermissions', [execution((r) => (r.from = other))])).rejects.toMatchObject({ code: Errors.codes.unauthorized })
    expect(sessions.sign).not.toHaveBeenCalled()
  })
})

describe('wallet_grantPermissions', () => {
  test('behavior: AppKit’s request is one session, delegated to its key’s address; the answer is one object with the context and the factory call', async () => {
    const { request, sessions } = setup()
    const asked = appKit()
    const granted = (await request('wallet_grantPermissions', [asked])) as Record<string, unknown>
    const [unsigned, , justification] = sessions.sign.mock.calls[0]!
    expect(unsigned).toMatchObject({ delegate: sessionKey.address, delegator: getAddress(smartAddress), caveats: Permissions.caveats(Permissions.fromGrantPermissions(asked), enforcers) })
    expect(justification).toBeUndefined()
    expect(sessions.record).toHaveBeenCalledExactlyOnceWith('eip155:31337', { ...unsigned, signature: wrapped(ownerSignature) })
    expect(granted).toEqual({ ...asked, context: expect.any(String), signerMeta: { delegationManager: environment.DelegationManager }, accountMeta: factoryArgs })
    expect(Permissions.decodeContext(granted.context as Hex)).toEqual([Permissions.fromJson({ ...unsigned, signature: ownerSignature })])
  })

  test.each([
    ['an unsupported permission type', appKit((r) => (r.permissions[0].type = 'native-token-transfer')), -32602],
    ['an expiry in the past', appKit((r) => (r.expiry = nowSeconds() - 1)), -32602],
    ['another chain', appKit((r) => (r.chainId = '0x2105')), 5710],
    ['another account’s `address`', appKit((r) => (r.address = other)), Errors.codes.unauthorized],
  ])('error: %s is refused before any approval', async (_, asked, code) => {
    const { request, sessions } = setup()
    await expect(request('wallet_grantPermissions', [asked])).rejects.toMatchObject({ code })
    expect(sessions.sign).not.toHaveBeenCalled()
  })
})

describe('revoke', () => {
  test('behavior: one call to the DelegationManager disables the delegation; the approval signs it and the revoke message; sent, included, then recorded by its id', async () => {
    const { revoke, account, on, sessions, prepared } = setup()
    const session = signedSession()
    const parsed = Permissions.fromJson(session)
    // The session's own chain, whichever chain the wallet is on.
    await revoke('eip155:31338', session)
    expect(on).toHaveBeenCalledExactlyOnceWith('eip155:31338')
    expect(account.prepare).toHaveBeenCalledExactlyOnceWith([{ to: environment.DelegationManager, data: Permissions.disableCalldata(parsed) }])
    expect(sessions.signRevoke).toHaveBeenCalledExactlyOnceWith('eip155:31338', { json: prepared }, Permissions.toJson(parsed), environment, expect.any(Function))
    expect(account.send).toHaveBeenCalledExactlyOnceWith(prepared, operationSignature)
    expect(account.wait).toHaveBeenCalledExactlyOnceWith(operationHash)
    expect(sessions.recordRevoke).toHaveBeenCalledExactlyOnceWith(Permissions.delegationHash(parsed), revokeSignature)
    // Recorded once disabled on chain, never before.
    expect(account.wait.mock.invocationCallOrder[0]).toBeLessThan(sessions.recordRevoke.mock.invocationCallOrder[0]!)
  })

  test('error: a reverted operation rejects (-32000) and the api records nothing', async () => {
    const { revoke, sessions } = setup({ success: false })
    await expect(revoke('eip155:31337', signedSession())).rejects.toMatchObject({
      code: -32000,
      message: format(embeddedText.operationReverted, { reason: 'CannotUseADisabledDelegation' }),
    })
    expect(sessions.recordRevoke).not.toHaveBeenCalled()
  })

  test('error: another account’s delegation is refused (4100) before anything is prepared or shown', async () => {
    const { revoke, account, on, sessions } = setup()
    await expect(revoke('eip155:31337', signedSession(other))).rejects.toMatchObject({ code: Errors.codes.unauthorized })
    expect(on).not.toHaveBeenCalled()
    expect(account.prepare).not.toHaveBeenCalled()
    expect(sessions.signRevoke).not.toHaveBeenCalled()
  })

  test('error: a delegation that does not read is refused before anything is shown', async () => {
    const { revoke, sessions } = setup()
    await expect(revoke('eip155:31337', { ...signedSession(), salt: 42 })).rejects.toBeInstanceOf(Permissions.PermissionError)
    expect(sessions.signRevoke).not.toHaveBeenCalled()
  })

  test('error: a bundler that is down is said at once, in its first line, and nothing is shown to sign', async () => {
    const down = Object.assign(new Error('HTTP request failed.\n\nURL: http://127.0.0.1:4337'), { shortMessage: 'HTTP request failed.' })
    const { revoke, sessions } = setup({ prepare: () => Promise.reject(down) })
    await expect(revoke('eip155:31337', signedSession())).rejects.toMatchObject({ message: format(embeddedText.bundlerDown, { reason: 'HTTP request failed.' }), cause: down })
    expect(sessions.signRevoke).not.toHaveBeenCalled()
    expect(sessions.recordRevoke).not.toHaveBeenCalled()
  })

  test('error: without smart sessions there is no revoke (4200)', async () => {
    const { revoke, account } = setup({ sessions: false })
    await expect(revoke('eip155:31337', signedSession())).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod })
    expect(account.prepare).not.toHaveBeenCalled()
  })
})

describe('embedded connector', () => {
  /** The connector for a smart account on a fake secure-site (which signs every `sign`) and fake api records. */
  function connected(options: { records?: boolean } = {}) {
    const { context, account } = setup({ deployed: true })
    const calls: Record<string, unknown>[] = []
    const secure = {
      call: vi.fn(async (_method: string, params: Record<string, unknown>) => {
        calls.push(params)
        return params.method === 'doorway_revokeSession' ? { result: operationSignature, revoke: revokeSignature } : { result: ownerSignature }
      }),
    }
    const records = { record: vi.fn(async () => {}), revoke: vi.fn(async () => {}) }
    const connector = Embedded.create({
      secure: secure as never,
      account: { email: 'ada@example.com', address: other, solanaAddress: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk' },
      chain: () => ({ chainId: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545' }),
      chainIds: () => ['eip155:31337'],
      host: 'http://localhost:5173',
      approve: (_op, sign) => sign(new AbortController().signal),
      refused: () => {},
      smart: context.smart,
      ...(options.records !== false && { sessions: records }),
    })
    return { connector, calls, records, account }
  }

  test('behavior: without the api’s records there are no sessions: no revokeSession, and a request is refused (4200)', async () => {
    const { connector, calls } = connected({ records: false })
    expect(connector.revokeSession).toBeUndefined()
    await expect(connector.request({ method: 'wallet_requestExecutionPermissions', params: [execution()] })).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod })
    expect(calls).toEqual([])
  })

  test('behavior: a session is signed in the secure-site as eth_signDelegation with the app’s justification, and recorded for the smart account', async () => {
    const { connector, calls, records } = connected()
    const [granted] = (await connector.request({ method: 'wallet_requestExecutionPermissions', params: [execution()] })) as { context: Hex }[]
    expect(calls).toEqual([
      {
        op: expect.any(String),
        method: 'eth_signDelegation',
        params: [expect.objectContaining({ delegator: getAddress(smartAddress), signature: '0x' }), { justification: 'Top up your game wallet daily' }],
        chainId: 'eip155:31337',
        host: 'http://localhost:5173',
        smartAccount: environment,
      },
    ])
    const [signed] = Permissions.decodeContext(granted!.context)
    expect(records.record).toHaveBeenCalledExactlyOnceWith('eip155:31337', smartAddress, Permissions.toJson(signed!))
  })

  test('behavior: revokeSession is one doorway_revokeSession approval on the session’s chain; its revoke signature goes to the api with the session’s id', async () => {
    const { connector, calls, records, account } = connected()
    const session = signedSession()
    await connector.revokeSession!('eip155:31338', session)
    expect(calls).toEqual([
      { op: expect.any(String), method: 'doorway_revokeSession', params: [{ json: expect.anything() }, session], chainId: 'eip155:31338', host: 'http://localhost:5173', smartAccount: environment },
    ])
    expect(account.send).toHaveBeenCalledWith(expect.anything(), operationSignature)
    expect(records.revoke).toHaveBeenCalledExactlyOnceWith(smartAddress, Permissions.delegationHash(Permissions.fromJson(session)), revokeSignature)
  })
})
