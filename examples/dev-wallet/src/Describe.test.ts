import { toHex } from 'viem'
import { describe as group, expect, test } from 'vitest'
import { describe } from './Describe.js'

const origin = 'http://localhost:5173'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

group('describe', () => {
  test.each([
    [{ method: 'eth_requestAccounts' }, `Connect to ${origin}`],
    [{ method: 'personal_sign', params: [toHex('Sign in to Doorway'), to] }, 'Sign message: Sign in to Doorway'],
    [{ method: 'personal_sign', params: ['0x00ff01', to] }, 'Sign message: 0x00ff01'],
    [{ method: 'eth_sendTransaction', params: [{ to, value: '0x38d7ea4c68000' }] }, `Send 0.001 ETH to ${to}`],
    [{ method: 'eth_sendTransaction', params: [{ to, data: '0xa9059cbb' }] }, `Send 0 ETH to ${to} with 4 bytes of data`],
    [{ method: 'eth_sendTransaction', params: [{ data: '0x6000' }] }, 'Deploy a contract with 2 bytes of data, sending 0 ETH'],
    [
      { method: 'wallet_addEthereumChain', params: [{ chainId: '0x7a6b', rpcUrls: ['http://127.0.0.1:8547'] }] },
      'Add network 31339 at http://127.0.0.1:8547',
    ],
    [
      { method: 'wallet_sendCalls', params: [{ calls: [{ to, value: '0x38d7ea4c68000' }, { to, data: '0xa9059cbb' }] }] },
      `Send 2 calls, one transaction each (not atomic):\n1. Send 0.001 ETH to ${to}\n2. Send 0 ETH to ${to} with 4 bytes of data`,
    ],
    [{ method: 'wallet_sendCalls', params: [{ calls: [{ data: '0x6000' }] }] }, 'Send 1 call:\n1. Deploy a contract with 2 bytes of data, sending 0 ETH'],
  ])('behavior: %j reads "%s"', (request, text) => {
    expect(describe(request, origin)).toBe(text)
  })
})
