import type { Modal, SiwxSession } from '@doorway/sdk'
import { useCallback, useEffect, useRef, useState } from 'react'
import { formatUnits } from 'viem'
import { useBalance, useChainId, useConnect, useConnection, useConnectors, useDisconnect } from 'wagmi'
import { Session } from './Session.js'
import * as SignIn from './signIn.js'

/** Everything shown comes from wagmi's own hooks, not from the modal; the sign-in, from the dapp's server. */
export function App({ modal }: { modal: Modal }) {
  const connection = useConnection()
  const chainId = useChainId()
  const [doorway] = useConnectors()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const balance = useBalance({ address: connection.address })
  const signIn = useServerSession(modal, `${connection.status} ${connection.address} ${chainId}`)
  const error = connect.error ?? disconnect.error ?? balance.error
  // The modal's own API beside wagmi's: open() settles with what happened, a sign-in included.
  const [opened, setOpened] = useState<string>('—')
  const openModal = () =>
    modal.open().then(
      (result) => setOpened(result.status === 'connected' && result.session ? `connected, signed in as ${result.session.data.accountAddress}` : result.status),
      (failure: Error) => setOpened(failure.message),
    )

  return (
    <main>
      <h1>Doorway + wagmi</h1>
      <p>wagmi's injected connector, pointed at the modal's EIP-1193 provider.</p>
      {connection.isConnected ? (
        <button type="button" onClick={() => disconnect.mutate()}>
          Disconnect
        </button>
      ) : (
        <button
          type="button"
          disabled={!doorway || connect.isPending}
          onClick={() => doorway && connect.mutate({ connector: doorway }, { onSettled: signIn.refresh })}
        >
          Connect with wagmi
        </button>
      )}
      <button type="button" onClick={openModal}>
        Open the modal
      </button>
      <dl>
        <dt>Status</dt>
        <dd aria-label="wagmi status">{connection.status}</dd>
        <dt>Address</dt>
        <dd aria-label="wagmi address">{connection.address ?? '—'}</dd>
        <dt>Chain</dt>
        <dd aria-label="wagmi chain">{connection.isConnected ? chainId : '—'}</dd>
        <dt>Balance</dt>
        <dd aria-label="wagmi balance">{balance.data ? `${formatUnits(balance.data.value, balance.data.decimals)} ${balance.data.symbol}` : '—'}</dd>
        <dt>Sign-in</dt>
        <dd aria-label="sign-in status">{describe(signIn.session)}</dd>
        <dt>open()</dt>
        <dd aria-label="open() result">{opened}</dd>
      </dl>
      {signIn.session && signIn.session !== 'checking' && (
        <button type="button" onClick={signIn.signOut}>
          Sign out
        </button>
      )}
      <Session provider={modal.getProvider()} />
      {error && <p role="alert">{'shortMessage' in error ? error.shortMessage : error.message}</p>}
      {!error && signIn.error && <p role="alert">{signIn.error.message}</p>}
    </main>
  )
}

function describe(session: SiwxSession | undefined | 'checking'): string {
  if (session === 'checking') return 'Checking…'
  if (!session) return 'Not signed in'
  return `Signed in as ${session.data.accountAddress} on ${session.data.chainId} (verified by the server)`
}

/**
 * What the server says of the sign-in (GET /siwx/api/session), asked again when `watched` changes (the
 * wagmi connection), when the modal closes (a sign-in ends there) and on `refresh`.
 */
function useServerSession(modal: Modal, watched: string) {
  const [session, setSession] = useState<SiwxSession | undefined | 'checking'>('checking')
  const [error, setError] = useState<Error>()
  // answers can arrive out of order: only the newest question's answer is shown
  const asked = useRef(0)
  const refresh = useCallback(async () => {
    const question = ++asked.current
    try {
      const found = await SignIn.readSession()
      if (question !== asked.current) return
      setSession(found)
      setError(undefined)
    } catch (failure) {
      if (question === asked.current) setError(failure as Error)
    }
  }, [])
  const signOut = useCallback(() => SignIn.signOut().then(refresh, (failure: Error) => setError(failure)), [refresh])
  useEffect(() => modal.subscribe('close', () => void refresh()), [modal, refresh])
  // `watched` is not read inside: its changing is what asks again
  useEffect(() => void refresh(), [refresh, watched])
  return { session, error, refresh, signOut }
}
