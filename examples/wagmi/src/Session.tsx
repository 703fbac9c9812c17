/**
 * "Grant a session" (issue 25): the dapp asks the person's smart account for an ERC-7715 permission, to
 * spend up to 0.01 ETH a day for an hour, held by a session key this page makes. It then spends 0.004 ETH
 * at a time with no prompt at all: its own smart account (owned by the session key, paid for by the
 * devnet's paymaster) redeems the delegation through the DelegationManager, whose enforcers check the
 * limit on chain. The third spend in a day, or any spend after the person revoked the session in the
 * modal (Account → Sessions), is refused there, and the page shows the contract's reason.
 */
import * as Permissions from '@doorway/shared/Permissions'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import * as SmartAccountClient from '@doorway/shared/SmartAccountClient'
import { useState } from 'react'
import { type Address, BaseError, createPublicClient, decodeErrorResult, formatEther, type Hex, http, parseAbi, parseEther, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { useBalance, useChainId, useConnection } from 'wagmi'

declare const __DOORWAY_API__: string

/** Anvil's account 2: where the session's spends go, so their arrival shows on chain. */
export const recipient: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const allowance = parseEther('0.01')
const spend = parseEther('0.004')
const day = 86_400
const hour = 3600
const projectId = 'doorway-wagmi-example'
const rpcUrls: Record<number, string> = { 31337: 'http://127.0.0.1:8545', 31338: 'http://127.0.0.1:8546' }

/** The DelegationManager's own errors and the enforcers' reasons, so a refused redeem reads as the contract says it. */
const delegationErrors = parseAbi([
  // An enforcer's require(…, reason): the standard Error(string).
  'error Error(string reason)',
  'error CannotUseADisabledDelegation()',
  'error InvalidDelegate()',
  'error InvalidDelegator()',
  'error InvalidAuthority()',
  'error InvalidERC1271Signature()',
  'error InvalidEOASignature()',
])

type Granted = {
  chainId: number
  key: ReturnType<typeof privateKeyToAccount>
  account: SmartAccountClient.Account
  context: Hex
  delegationManager: Address
  delegator: Address
  entryPoint: Address
  dependencies: { factory: Address; factoryData: Hex }[]
}

type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }

export function Session({ provider }: { provider: Provider }) {
  const connection = useConnection()
  const chainId = useChainId()
  const received = useBalance({ address: recipient })
  const [granted, setGranted] = useState<Granted>()
  const [busy, setBusy] = useState(false)
  const [log, setLog] = useState<string[]>([])
  // Each action adds one line to the log: what happened, or the reason it did not.
  const run = async (action: () => Promise<string>, failed: string) => {
    setBusy(true)
    const line = await action().catch((error: unknown) => `${failed}: ${reasonOf(error)}`)
    setLog((lines) => [...lines, line])
    setBusy(false)
    void received.refetch()
  }
  const grant = () =>
    run(async () => {
      const session = await grantSession(provider, chainId)
      setGranted(session)
      return `Session granted: up to ${formatEther(allowance)} ETH a day for an hour, to key ${session.key.address}`
    }, 'Not granted')
  const spendOnce = () => granted && run(() => spendWith(granted), 'Refused on chain')

  if (!connection.isConnected) return null
  return (
    <section aria-labelledby="session-title">
      <h2 id="session-title">Smart session</h2>
      <p>
        Needs the email wallet's smart account (the modal's Account → Account type). The page then spends from it within the limit, asking
        nothing.
      </p>
      <button type="button" disabled={busy} onClick={() => void grant()}>
        Grant a session
      </button>
      <button type="button" disabled={busy || !granted} onClick={() => void spendOnce()}>
        Spend {formatEther(spend)} ETH with the session
      </button>
      <dl>
        <dt>Receiver</dt>
        <dd aria-label="session receiver balance">{received.data ? `${formatEther(received.data.value)} ETH` : '—'}</dd>
      </dl>
      <ol aria-label="Session log">
        {log.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
    </section>
  )
}

/** Asks the person's wallet for the session (ERC-7715), to a fresh key whose smart account will redeem it. */
async function grantSession(provider: Provider, chainId: number): Promise<Granted> {
  const key = privateKeyToAccount(generatePrivateKey())
  const network = await smartAccountNetwork(chainId)
  // The page's own account redeems: a smart account of the session key, so that no ETH is needed anywhere.
  const account = await SmartAccountClient.create({ owner: key.address, chainId, rpcUrl: rpcUrls[chainId]!, network })
  const now = Math.floor(Date.now() / 1000)
  const [answer] = (await provider.request({
    method: 'wallet_requestExecutionPermissions',
    params: [
      {
        chainId: toHex(chainId),
        to: account.address,
        permission: {
          type: 'native-token-periodic',
          isAdjustmentAllowed: false,
          // No startTime: the period starts when the wallet grants it, by the chain's clock.
          data: { periodAmount: toHex(allowance), periodDuration: day, justification: 'The Doorway demo spends up to 0.01 ETH a day' },
        },
        rules: [{ type: 'expiry', data: { timestamp: now + hour } }],
      },
    ],
  })) as [{ context: Hex; delegationManager: Address; dependencies?: { factory: Address; factoryData: Hex }[] }]
  const [delegation] = Permissions.decodeContext(answer.context)
  return {
    chainId,
    key,
    account,
    context: answer.context,
    delegationManager: answer.delegationManager,
    delegator: delegation!.delegator,
    entryPoint: network.environment.EntryPoint,
    dependencies: answer.dependencies ?? [],
  }
}

/** One spend of 0.004 ETH through the session, signed by its key alone: no prompt anywhere. */
async function spendWith(granted: Granted): Promise<string> {
  const chain = createPublicClient({ transport: http(rpcUrls[granted.chainId]) })
  // ERC-7715's dependencies: the person's account is deployed first when it is not yet (its factory is permissionless).
  const deployed = (await chain.getCode({ address: granted.delegator })) !== undefined
  const calls = [
    ...(deployed ? [] : granted.dependencies.map((d) => ({ to: d.factory, data: d.factoryData }))),
    { to: granted.delegationManager, data: Permissions.redeemCalldata([granted.context], [{ target: recipient, value: spend, callData: '0x' }]) },
  ]
  const operation = await granted.account.prepare(calls)
  const signature = await granted.key.signTypedData(SmartAccount.userOperationTypedData(operation, { chainId: granted.chainId, entryPoint: granted.entryPoint }))
  const receipt = await granted.account.wait(await granted.account.send(operation, signature))
  if (!receipt.success) throw new Error(`reverted on chain${receipt.reason ? `: ${receipt.reason}` : ''}`)
  return `Spent ${formatEther(spend)} ETH without a prompt (transaction ${receipt.receipt.transactionHash})`
}

/** The chain's bundler, paymaster and Delegation Framework, as the Doorway api serves them to the modal. */
async function smartAccountNetwork(chainId: number): Promise<SmartAccountClient.Network> {
  const url = `${__DOORWAY_API__}/v1/smart-accounts/${encodeURIComponent(`eip155:${chainId}`)}?projectId=${projectId}`
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  if (!response.ok) throw new Error(`No smart accounts on chain ${chainId} (${response.status})`)
  const answer = (await response.json()) as { bundlerUrl: string; paymasterUrl?: string; environment: SmartAccount.Environment & { caveatEnforcers: Record<string, Address> } }
  return { bundlerUrl: answer.bundlerUrl, paymasterUrl: answer.paymasterUrl, environment: answer.environment, enforcers: answer.environment.caveatEnforcers }
}

/** The contract's own words: an enforcer's revert string, a DelegationManager error by name, else viem's short message. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const text = [error instanceof BaseError ? error.details : '', error.message].join(' ')
  // The bundler's simulation gives the revert data as hex: Error(string) or one of the DelegationManager's errors.
  for (const [data] of text.matchAll(/0x[0-9a-f]{8}(?:[0-9a-f]{64})*(?![0-9a-f])/gi)) {
    try {
      const decoded = decodeErrorResult({ abi: delegationErrors, data: data as Hex })
      return decoded.errorName === 'Error' ? decoded.args[0] : decoded.errorName
    } catch {
      // not an error this page knows
    }
  }
  const enforcer = /([A-Za-z]+Enforcer:[a-z-]+)/.exec(text)
  if (enforcer) return enforcer[1]!
  return error instanceof BaseError ? error.shortMessage : error.message.split('\n')[0]!
}
