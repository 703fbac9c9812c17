import { describe, expect, test } from 'vitest'
import * as History from './history.js'
import type { Route } from './routes.js'

const connect: Route = { view: 'Connect' }
const all: Route = { view: 'AllWallets' }
const networks: Route = { view: 'Networks' }
const unsupported: Route = { view: 'UnsupportedChain' }

describe('push', () => {
  test('behavior: adds a view on top', () => {
    expect(History.push([connect], all)).toEqual([connect, all])
  })
  test('behavior: does not add the current view again', () => {
    const history = [connect, all]
    expect(History.push(history, { view: 'AllWallets' })).toBe(history)
  })
  test('behavior: adds a view that is deeper in the stack but not current', () => {
    expect(History.push([connect, all], connect)).toEqual([connect, all, connect])
  })
  test('behavior: routes carry their own arguments', () => {
    const route: Route = { view: 'ConnectingExternal', connectorId: 'io.metamask' }
    expect(History.current(History.push([connect], route))).toEqual(route)
  })
})

describe('replace', () => {
  test('behavior: swaps the current view', () => {
    expect(History.replace([connect, all], networks)).toEqual([connect, networks])
  })
  test('behavior: on an empty history it becomes the only view', () => {
    expect(History.replace([], connect)).toEqual([connect])
  })
})

describe('reset', () => {
  test('behavior: a single-item history', () => {
    expect(History.reset(networks)).toEqual([networks])
  })
})

describe('goBack', () => {
  test('behavior: pops the current view', () => {
    expect(History.goBack([connect, all])).toEqual({ history: [connect], close: false })
  })
  test.each<[string, Route[]]>([
    ['one view remains', [connect]],
    ['the history is empty', []],
    ['the history holds UnsupportedChain at the top', [connect, unsupported]],
    ['the history holds UnsupportedChain below', [unsupported, networks]],
  ])('behavior: closes when %s', (_, history) => {
    expect(History.goBack(history)).toEqual({ history, close: true })
  })
})

describe('replaceFrom', () => {
  const account: Route = { view: 'Account' }
  const send: Route = { view: 'Send' }
  const amount: Route = { view: 'SendAmount' }
  const receiver: Route = { view: 'SendReceiver' }
  const preview: Route = { view: 'SendPreview' }
  const confirm: Route = { view: 'SendConfirm' }
  const result: Route = { view: 'SendResult', hash: `0x${'ab'.repeat(32)}`, chainId: 'eip155:31337' }

  test('behavior: everything from the first matching view on gives way to the route', () => {
    expect(History.replaceFrom([account, send, amount, receiver, preview, confirm], 'Send', result)).toEqual([account, result])
  })
  test('behavior: from the first match when the view is in the history twice', () => {
    expect(History.replaceFrom([account, send, amount, send, amount], 'Send', result)).toEqual([account, result])
  })
  test('behavior: the matching view at the top is replaced like replace()', () => {
    expect(History.replaceFrom([account, send, amount], 'SendAmount', receiver)).toEqual([account, send, receiver])
  })
  test('behavior: the matching view at the bottom replaces the whole history', () => {
    expect(History.replaceFrom([send, amount, preview], 'Send', send)).toEqual([send])
  })
  test.each<[string, Route[]]>([
    ['the view is not in the history', [account, networks]],
    ['the history is empty', []],
  ])('behavior: the whole history is replaced when %s', (_, history) => {
    expect(History.replaceFrom(history, 'Send', result)).toEqual([result])
  })
  test('behavior: going back afterwards leaves the flow', () => {
    const ended = History.replaceFrom([account, send, amount, receiver, preview, confirm], 'Send', result)
    expect(History.goBack(ended)).toEqual({ history: [account], close: false })
  })
  test('behavior: going back when the flow was the whole history closes the modal', () => {
    const ended = History.replaceFrom([send, amount, preview, confirm], 'Send', result)
    expect(History.goBack(ended)).toEqual({ history: [result], close: true })
  })
  test('behavior: does not change the history it was given', () => {
    const history = [account, send, amount]
    History.replaceFrom(history, 'Send', result)
    expect(history).toEqual([account, send, amount])
  })
})

describe('opening', () => {
  test.each<[string, Parameters<typeof History.opening>[0], Route['view']]>([
    ['rule 1, desktop: basic and disconnected', { basic: true, connected: false, mobile: false }, 'ConnectingWalletConnectBasic'],
    ['rule 1, mobile: basic and disconnected', { basic: true, connected: false, mobile: true }, 'AllWallets'],
    ['rule 1 before rule 2', { basic: true, connected: false, mobile: false, view: networks }, 'ConnectingWalletConnectBasic'],
    ['rule 2: an explicit view wins over connected', { basic: false, connected: true, mobile: false, view: networks }, 'Networks'],
    ['rule 2 applies in basic mode once connected', { basic: true, connected: true, mobile: false, view: networks }, 'Networks'],
    ['rule 3: connected sees Account', { basic: false, connected: true, mobile: false }, 'Account'],
    ['rule 3 in basic mode when connected', { basic: true, connected: true, mobile: true }, 'Account'],
    ['rule 4: otherwise Connect', { basic: false, connected: false, mobile: false }, 'Connect'],
  ])('behavior: %s', (_, options, view) => {
    expect(History.opening(options).view).toBe(view)
  })
})

describe('embeddedHome', () => {
  test.each([
    [true, 'Account'],
    [false, 'Connect'],
  ])('behavior: connected=%s resets to %s', (connected, view) => {
    expect(History.embeddedHome(connected)).toEqual({ view })
  })
})
