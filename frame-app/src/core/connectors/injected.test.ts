/**
 * The extension path of EIP-5792 (issue 25): the frame hands a host-page wallet any request through the
 * SDK's `walletRequest`, over a real channel pair as the SDK and the frame build it, so wallet_sendCalls,
 * wallet_getCallsStatus and wallet_getCapabilities reach a wallet that has them, and its EIP-5792 error
 * codes come back intact.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Protocol from '@doorway/shared/Protocol'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Host } from '../host.js'
import * as Injected from './injected.js'

const wallet: Protocol.WalletInfo = {
  uuid: '3f0c0d5e-0000-4000-8000-000000000000',
  name: 'Doorway Dev Wallet',
  icon: 'data:image/svg+xml;base64,PHN2Zy8+',
  rdns: 'dev.doorway.wallet',
  type: 'ANNOUNCED',
}
const log = { warn() {}, debug() {} }
const closers: (() => void)[] = []
afterEach(() => closers.splice(0).forEach((close) => close()))

/** The SDK's side answering walletRequest with `provider`, and the frame's side calling it. */
function channelTo(provider: (request: Protocol.RpcRequest) => Promise<unknown>) {
  const { port1, port2 } = new MessageChannel()
  const seen: { uuid: string; request: Protocol.RpcRequest }[] = []
  const handlers = {
    walletRequest: ({ uuid, request }: { uuid: string; request: Protocol.RpcRequest }) => (seen.push({ uuid, request }), provider(request)),
  } as unknown as Channel.Handlers<Protocol.HostApi>
  const sdk = Channel.create<Protocol.HostApi, Protocol.FrameApi>({ port: port1, log, accepts: Protocol.hostParams, expects: Protocol.frameResults, expose: Channel.respond, handlers })
  const frame = Channel.create<Protocol.FrameApi, Protocol.HostApi>({
    port: port2,
    log,
    accepts: {} as Protocol.FrameApi['params'],
    expects: Protocol.hostResults,
    expose: Channel.respond,
    handlers: {} as Channel.Handlers<Protocol.FrameApi>,
  })
  closers.push(() => sdk.close(), () => frame.close())
  const call = vi.fn(frame.call)
  return { host: { call } as Host, call, seen }
}

const batch = { version: '2.0.0', chainId: '0x7a69', from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', atomicRequired: false, calls: [{ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x1' }] }

describe('fromWallet', () => {
  test.each([
    ['wallet_getCapabilities', [batch.from, ['0x7a69']], { '0x7a69': { atomic: { status: 'unsupported' } } }],
    ['wallet_sendCalls', [batch], { id: `0x${'ab'.repeat(32)}` }],
    ['wallet_getCallsStatus', [`0x${'ab'.repeat(32)}`], { version: '2.0.0', id: `0x${'ab'.repeat(32)}`, chainId: '0x7a69', atomic: false, status: 100, receipts: [] }],
  ])('behavior: %s goes to the host wallet as asked, with a prompt-length timeout, and its answer comes back', async (method, params, answer) => {
    const { host, call, seen } = channelTo(async () => answer)
    const connector = Injected.fromWallet(wallet, host)
    expect(await connector.request({ method, params })).toEqual(answer)
    expect(seen).toEqual([{ uuid: wallet.uuid, request: { method, params } }])
    expect(call).toHaveBeenCalledWith('walletRequest', expect.anything(), { timeoutMs: 300_000 })
  })

  test.each([
    [5700, 'Unsupported non-optional capability'],
    [5710, 'Unsupported chain id'],
    [5720, 'Duplicate ID'],
    [5730, 'Unknown bundle id'],
    [5760, 'Atomicity not supported'],
    [4200, 'The Provider does not support the requested method: wallet_showCallsStatus.'],
  ])('error: the wallet\'s %i comes back with its code and message', async (code, message) => {
    const { host } = channelTo(() => Promise.reject(Object.assign(new Error(message), { code })))
    const connector = Injected.fromWallet(wallet, host)
    await expect(connector.request({ method: 'wallet_sendCalls', params: [batch] })).rejects.toMatchObject({ code, message })
  })
})
