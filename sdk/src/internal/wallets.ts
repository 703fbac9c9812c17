/**
 * Extension wallets stay on the host page (docs/architecture.md §4): EIP-6963 discovery, or a legacy
 * `window.ethereum` when nothing announces. Only their info crosses to the frame; requests and
 * events are relayed here, for wallets this page announced and nothing else.
 */
import * as Errors from '@doorway/shared/Errors'
import * as Protocol from '@doorway/shared/Protocol'

type Provider = {
  request(args: Protocol.RpcRequest): Promise<unknown>
  on?(event: string, listener: (data: unknown) => void): void
  removeListener?(event: string, listener: (data: unknown) => void): void
}
type Entry = { info: Protocol.WalletInfo; provider: Provider }

// The frame draws its own icon for a legacy wallet; this empty image satisfies the schema.
const legacyIcon = 'data:image/svg+xml,'

export function discover(options: {
  onChange(wallets: Protocol.WalletInfo[]): void
  onEvent(event: Protocol.WalletEvent): void
  log: { warn(...args: unknown[]): void }
}) {
  const { onChange, onEvent, log } = options
  const byRdns = new Map<string, Entry>()
  // Per used wallet uuid: what removes the listeners this added to it, run by stop().
  const listening = new Map<string, (() => void)[]>()
  let legacy: Entry | undefined
  // Answers to our own request arrive synchronously and go out with init; later ones are news.
  let late = false
  // The legacy window.ethereum counts only while nothing has announced itself.
  const entries = () => (byRdns.size || !legacy ? [...byRdns.values()] : [legacy])
  const list = () => entries().map((e) => e.info)

  const onAnnounce = (event: Event) => {
    const { info, provider } = ((event as CustomEvent).detail ?? {}) as { info?: object; provider?: Provider }
    const wallet = { ...info, type: 'ANNOUNCED' as const }
    if (!Protocol.walletInfo(wallet) || typeof provider?.request !== 'function') return log.warn('ignored wallet', info)
    if (byRdns.get(wallet.rdns)?.info.uuid === wallet.uuid) return
    byRdns.set(wallet.rdns, { info: wallet, provider })
    if (late) onChange(list())
  }
  window.addEventListener('eip6963:announceProvider', onAnnounce)
  window.dispatchEvent(new Event('eip6963:requestProvider'))
  late = true
  const ethereum = (window as { ethereum?: Provider }).ethereum
  if (typeof ethereum?.request === 'function')
    legacy = {
      info: { uuid: crypto.randomUUID(), name: 'Browser Wallet', icon: legacyIcon, rdns: 'injected.ethereum', type: 'INJECTED' },
      provider: ethereum,
    }

  return {
    list,
    /** Runs a request on an announced wallet; a uuid this page never announced is refused. */
    request(uuid: string, request: Protocol.RpcRequest) {
      const entry = entries().find((e) => e.info.uuid === uuid)
      if (!entry) return Promise.reject(Errors.unknownWallet())
      const { provider } = entry
      if (!listening.has(uuid))
        listening.set(
          uuid,
          (['accountsChanged', 'chainChanged', 'disconnect'] as const).map((name) => {
            // Checked where it lands: the frame's channel refuses a malformed event (Protocol.walletEvent), and onEvent's call fails.
            const listener = (data: unknown) => onEvent({ uuid, event: name, data } as Protocol.WalletEvent)
            provider.on?.(name, listener)
            return () => provider.removeListener?.(name, listener)
          }),
        )
      return provider.request(request)
    },
    /** Stops discovery and removes every listener this added to a wallet. */
    stop() {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      for (const removers of listening.values()) removers.forEach((remove) => remove())
    },
  }
}
