// @vitest-environment jsdom
/**
 * The Sessions view (issue 25, docs/embedded-wallet.md "Smart sessions"): the smart account's sessions as
 * the api lists them (spec §7 GET /v1/sessions/{address}), their limits in words and state, and Revoke.
 * Rendered from a store, with the api's `sessions` and the connector's `revokeSession` faked (the revoke
 * itself is smartSessions.test.ts's).
 */
import * as Address from '@doorway/shared/Address'
import type * as Caip from '@doorway/shared/Caip'
import { format } from '@doorway/shared/Texts'
import { sessionsText } from '@doorway/shared/texts/sessions'
import { createStore, Provider } from 'jotai'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { Session } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { type Connector, embeddedId } from '../../core/connectors/Connector.js'
import { usdc, usdcContract } from '../../features/balances/balances.testing.js'
import { tokensAtom } from '../../features/balances/tokens.js'
import SmartSessionList from './SmartSessionList.js'

beforeAll(() => void Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true }))
const unmounts: (() => void)[] = []
afterEach(async () => {
  for (const unmount of unmounts.splice(0)) await act(unmount)
})

const smartAddress = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const keys = ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'] as const
const anvil = { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrl: 'http://127.0.0.1:8545', testnet: true }
const later = Date.UTC(2031, 0, 15, 12) / 1000
const earlier = Date.UTC(2025, 5, 1, 9, 30) / 1000
const dateOf = (seconds: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000))
const expires = (seconds: number) => format(sessionsText.expires, { date: dateOf(seconds) })
const expiredAt = (seconds: number) => format(sessionsText.expiredAt, { date: dateOf(seconds) })

/** 0.01 ETH a day: the api's decoded caveats, amounts as decimal strings. */
const dailyEth = { type: 'native-token-periodic', period: { amount: '10000000000000000', seconds: 86_400, start: earlier } }

/** A session as the api lists it, delegated to `keys[n]`, made at minute `n`. */
function session(n: number, fields: Partial<Session> & { permission?: unknown; maxCalls?: number } = {}): Session {
  const { permission = dailyEth, maxCalls, ...rest } = fields
  const expiry = rest.expiry ?? later
  return {
    address: smartAddress,
    pci: `0x${String(n).padStart(64, '0')}`,
    chainId: 'eip155:31337',
    permissions: { permission, expiry, ...(maxCalls !== undefined && { maxCalls }) },
    expiry,
    revoked: false,
    createdAt: Date.UTC(2026, 0, 1, 0, n),
    delegation: { delegate: keys[n % keys.length], delegator: smartAddress, salt: `0x${n}` },
    status: 'active',
    statusFrom: 'chain',
    ...rest,
  }
}

function deferred<T = void>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

/**
 * The view for the embedded wallet's smart account; `lists` answers GET /v1/sessions/{address} in turn
 * (the last one again for later calls), each a list, a promise of one, or the error it fails with.
 */
async function render(lists: (Session[] | Promise<Session[]> | Error)[], revokeSession = vi.fn(async (_chainId: Caip.ChainId, _delegation: unknown) => {})) {
  const connector: Connector = {
    id: embeddedId,
    name: 'ada@example.com',
    type: 'AUTH',
    namespaces: ['eip155', 'solana'],
    accountType: 'smartAccount',
    revokeSession,
    request: async () => null,
  }
  const store = createStore()
  store.set(configAtom, { networks: [anvil], projectId: 'p', sdkType: 'appkit', sdkVersion: 'v', features: { smartSessions: true } } as never)
  store.set(accountAtom, { connector, address: smartAddress, chainId: 'eip155:31337' })
  store.set(tokensAtom, { status: 'ready', balances: [usdc], lastFailure: null })
  let call = 0
  const sessions = vi.spyOn(store.get(apiAtom), 'sessions').mockImplementation(async () => {
    const answer = lists[Math.min(call++, lists.length - 1)]!
    if (answer instanceof Error) throw answer
    return answer
  })
  const container = document.body.appendChild(document.createElement('div'))
  let root: Root | undefined
  const mount = async () => {
    root = createRoot(container)
    await act(async () =>
      root!.render(
        <Provider store={store}>
          <SmartSessionList />
        </Provider>,
      ),
    )
  }
  const unmount = () => {
    root?.unmount()
    root = undefined
  }
  await mount()
  unmounts.push(() => {
    unmount()
    container.remove()
  })
  const items = () => [...container.querySelectorAll('li')]
  return {
    container,
    /** The view leaves the screen (the approval replaces it while the secure-site signs), then `mount` draws it again. */
    unmount: () => act(unmount),
    mount,
    sessions,
    revokeSession,
    items,
    /** Each session's lines as read: its limit, its state, then its details. */
    read: () => items().map((item) => [...item.querySelectorAll('span')].map((span) => span.textContent)),
    buttons: () => [...container.querySelectorAll('button')],
    alerts: () => [...container.querySelectorAll('[role="alert"]')].map((alert) => alert.textContent),
    status: () => container.querySelector('[role="status"]')!.textContent,
    progress: () => container.querySelector('[role="progressbar"]'),
  }
}

/** A button's accessible name: its aria-label, else its text. */
const nameOf = (button: HTMLButtonElement) => button.getAttribute('aria-label') ?? button.textContent
/** The limit of 0.01 ETH a day, in the view's words ("Spend up to 0.01 ETH every day"). */
const ethADay = (amount = '0.01') => format(sessionsText.spendNative, { amount, symbol: 'ETH', period: sessionsText.perDay })
const keyLine = (n: number) => format(sessionsText.sessionKey, { key: Address.truncate(keys[n]!) })

describe('SmartSessionList', () => {
  test('behavior: says it is loading until the api answers, asking for the account’s sessions', async () => {
    const answer = deferred<Session[]>()
    const { sessions, progress, items } = await render([answer.promise])
    expect(sessions).toHaveBeenCalledExactlyOnceWith(smartAddress, expect.any(AbortSignal))
    expect(progress()?.getAttribute('aria-label')).toBe(sessionsText.loading)
    expect(items()).toEqual([])
    await act(async () => answer.resolve([session(1)]))
    expect(progress()).toBeNull()
    expect(items()).toHaveLength(1)
  })

  test('behavior: lists the sessions newest first, each with its limit in words, its state, its expiry and its key', async () => {
    const { read } = await render([
      [session(0, { status: 'revoked', revoked: true }), session(2), session(1, { expiry: earlier, status: 'expired' })],
    ])
    expect(read()).toEqual([
      [ethADay(), sessionsText.active, expires(later), 'On Anvil', keyLine(2)],
      [ethADay(), sessionsText.expired, expiredAt(earlier), 'On Anvil', keyLine(1)],
      [ethADay(), sessionsText.revoked, expires(later), 'On Anvil', keyLine(0)],
    ])
  })

  test.each([
    ['a native allowance, exactly (not rounded to 3 decimals)', { ...dailyEth, period: { ...dailyEth.period, amount: '400000000000000' } }, ethADay('0.0004')],
    ['a token the account holds, in its symbol', { type: 'erc20-token-periodic', token: usdcContract, period: { amount: '10000000', seconds: 604_800, start: earlier } }, format(sessionsText.spendToken, { amount: '10', symbol: 'USDC', period: sessionsText.perWeek })],
    [
      'a token it does not hold, in base units',
      { type: 'erc20-token-periodic', token: keys[2], period: { amount: '10000000', seconds: 2 * 86_400, start: earlier } },
      format(sessionsText.spendTokenUnits, { amount: '10000000', token: Address.truncate(keys[2]), period: format(sessionsText.every, { duration: '2 days' }) }),
    ],
    ['a contract call', { type: 'contract-call', targets: [usdcContract, keys[2]], selectors: [] }, format(sessionsText.callOnly, { targets: `${Address.truncate(usdcContract)}, ${Address.truncate(keys[2])}` })],
    ['limits it cannot read', { type: 'stream' }, sessionsText.unreadable],
  ])('param: %s', async (_, permission, limit) => {
    const { read } = await render([[session(1, { permission })]])
    expect(read()[0]![0]).toBe(limit)
  })

  test('param: a cap on uses is said', async () => {
    const { read } = await render([[session(1, { maxCalls: 1000 })]])
    expect(read()[0]).toContain(format(sessionsText.maxCalls, { count: '1,000' }))
  })

  test('behavior: only an active session can be revoked, by a button named for its key', async () => {
    const { buttons } = await render([[session(0, { status: 'revoked', revoked: true }), session(1, { status: 'expired' }), session(2)]])
    expect(buttons().map(nameOf)).toEqual([format(sessionsText.revokeLabel, { key: Address.truncate(keys[2]) })])
    expect(buttons()[0]!.textContent).toBe(sessionsText.revoke)
  })

  test('behavior: Revoke asks the wallet to revoke the session on its chain, is busy meanwhile, then says so and reloads the list', async () => {
    const pending = deferred()
    const revokeSession = vi.fn((_chainId: Caip.ChainId, _delegation: unknown) => pending.promise)
    const listed = session(2)
    const { buttons, sessions, status, read } = await render([[listed], [{ ...listed, status: 'revoked', revoked: true }]], revokeSession)
    await act(async () => buttons()[0]!.click())
    expect(revokeSession).toHaveBeenCalledExactlyOnceWith('eip155:31337', listed.delegation)
    expect(buttons()[0]!.disabled).toBe(true)
    expect(nameOf(buttons()[0]!)).toBe(sessionsText.revoking)
    expect(status()).toBe('')
    expect(sessions).toHaveBeenCalledTimes(1)

    await act(async () => pending.resolve())
    expect(status()).toBe(sessionsText.revokedNow)
    expect(sessions).toHaveBeenCalledTimes(2)
    expect(read()[0]).toContain(sessionsText.revoked)
    expect(buttons()).toEqual([])
  })

  test('error: a revoke that fails says why in an alert and keeps the button', async () => {
    const revokeSession = vi.fn(async () => Promise.reject(new Error('The person rejected the request.\nDetails: 4001')))
    const { buttons, alerts, status, sessions } = await render([[session(2)]], revokeSession)
    await act(async () => buttons()[0]!.click())
    expect(alerts()).toEqual([format(sessionsText.revokeFailed, { reason: 'The person rejected the request.' })])
    expect(buttons()).toHaveLength(1)
    expect(buttons()[0]!.disabled).toBe(false)
    expect(nameOf(buttons()[0]!)).toBe(format(sessionsText.revokeLabel, { key: Address.truncate(keys[2]) }))
    expect(status()).toBe('')
    expect(sessions).toHaveBeenCalledTimes(1)
  })

  test.each([
    ['ended', () => Promise.resolve(), sessionsText.revokedNow, []],
    ['failed', () => Promise.reject(new Error('Rejected by the user')), '', [format(sessionsText.revokeFailed, { reason: 'Rejected by the user' })]],
  ])('behavior: drawn again after the approval that replaced it, the view says how the revoke %s', async (_, outcome, status, alerts) => {
    const pending = deferred()
    const view = await render([[session(2)]], vi.fn(() => pending.promise.then(outcome)))
    await act(async () => view.buttons()[0]!.click())
    await view.unmount()
    await act(async () => pending.resolve())
    await view.mount()
    expect([view.status(), view.alerts()]).toEqual([status, alerts])
    // Leaving the view again forgets it.
    await view.unmount()
    await view.mount()
    expect([view.status(), view.alerts()]).toEqual(['', []])
  })

  test('error: a list that does not load says why in an alert; Try again loads it', async () => {
    const { alerts, buttons, sessions, items } = await render([new Error('HTTP 503'), [session(1)]])
    expect(alerts()).toEqual([expect.stringContaining(format(sessionsText.loadFailed, { reason: 'HTTP 503' }))])
    expect(items()).toEqual([])
    const retry = buttons().find((b) => b.textContent === sessionsText.retry)!
    await act(async () => retry.click())
    expect(sessions).toHaveBeenCalledTimes(2)
    expect(alerts()).toEqual([])
    expect(items()).toHaveLength(1)
  })

  test('behavior: an account without sessions is told so', async () => {
    const { container, items } = await render([[]])
    expect(items()).toEqual([])
    expect(container.textContent).toContain(sessionsText.empty)
  })

  test('behavior: a state the chain did not confirm says it is the server’s', async () => {
    const { read } = await render([[session(1, { statusFrom: 'server' }), session(2)]])
    const [newest, older] = read()
    expect(older).toContain(sessionsText.fromServer)
    expect(newest).not.toContain(sessionsText.fromServer)
  })
})
