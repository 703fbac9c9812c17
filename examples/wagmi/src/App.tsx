import { formatUnits } from 'viem'
import { useBalance, useChainId, useConnect, useConnection, useConnectors, useDisconnect } from 'wagmi'

/** Everything shown comes from wagmi's own hooks, not from the modal. */
export function App() {
  const connection = useConnection()
  const chainId = useChainId()
  const [doorway] = useConnectors()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const balance = useBalance({ address: connection.address })
  const error = connect.error ?? disconnect.error ?? balance.error

  return (
    <main>
      <h1>Doorway + wagmi</h1>
      <p>wagmi's injected connector, pointed at the modal's EIP-1193 provider.</p>
      {connection.isConnected ? (
        <button type="button" onClick={() => disconnect.mutate()}>
          Disconnect
        </button>
      ) : (
        <button type="button" disabled={!doorway || connect.isPending} onClick={() => doorway && connect.mutate({ connector: doorway })}>
          Connect with wagmi
        </button>
      )}
      <dl>
        <dt>Status</dt>
        <dd aria-label="wagmi status">{connection.status}</dd>
        <dt>Address</dt>
        <dd aria-label="wagmi address">{connection.address ?? '—'}</dd>
        <dt>Chain</dt>
        <dd aria-label="wagmi chain">{connection.isConnected ? chainId : '—'}</dd>
        <dt>Balance</dt>
        <dd aria-label="wagmi balance">{balance.data ? `${formatUnits(balance.data.value, balance.data.decimals)} ${balance.data.symbol}` : '—'}</dd>
      </dl>
      {error && <p role="alert">{'shortMessage' in error ? error.shortMessage : error.message}</p>}
    </main>
  )
}
