import { createStore } from 'jotai'
import { describe, expect, test } from 'vitest'
import { accountMethods, unsafeMethods } from './methods.js'
import * as Requests from './requests.js'

describe('accountMethods', () => {
  test.each([
    ['eth_sendTransaction', true, true],
    ['personal_sign', true, true],
    ['wallet_sendCalls', true, true],
    ['wallet_requestExecutionPermissions', true, true],
    ['wallet_getCapabilities', true, false],
    ['wallet_getCallsStatus', true, false],
    ['wallet_showCallsStatus', true, false],
    ['eth_blockNumber', false, false],
    ['wallet_switchEthereumChain', false, false],
  ])('behavior: %s needs an authorised connection: %s; refreshes the balance: %s', (method, account, unsafe) => {
    expect(accountMethods.has(method)).toBe(account)
    expect(unsafeMethods.has(method)).toBe(unsafe)
  })

  test('behavior: every unsafe method needs an authorised connection', () => {
    expect([...unsafeMethods].filter((method) => !accountMethods.has(method))).toEqual([])
  })
})

describe("the dapp's provider while disconnected", () => {
  test.each([
    ['wallet_sendCalls', [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, calls: [] }], 4100],
    ['wallet_getCapabilities', ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'], 4100],
    ['wallet_getCallsStatus', ['0x01'], 4100],
    ['wallet_showCallsStatus', ['0x01'], 4100],
    ['eth_blockNumber', [], 4900],
  ])('error: %s is refused without asking any wallet', async (method, params, code) => {
    const request = Requests.create(createStore())
    await expect(request({ method, params })).rejects.toMatchObject({ code })
  })
})
