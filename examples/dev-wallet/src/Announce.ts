/** EIP-6963: announce the provider now and again on every `eip6963:requestProvider`. */
export type Info = { uuid: string; name: string; icon: string; rdns: string }

export function announce(target: EventTarget, info: Info, provider: unknown): () => void {
  // EIP-6963 §Announce: the detail and its info are frozen so one dapp listener cannot alter them for others.
  const detail = Object.freeze({ info: Object.freeze({ ...info }), provider })
  const send = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  target.addEventListener('eip6963:requestProvider', send)
  send()
  return () => target.removeEventListener('eip6963:requestProvider', send)
}
