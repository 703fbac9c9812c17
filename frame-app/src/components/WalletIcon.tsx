import { Icon } from './Icon.js'

/** A wallet's own icon (a data URI from EIP-6963, shown only through <img>), or a generic one. */
export function WalletIcon({ src, size = 32 }: { src?: string | undefined; size?: number }) {
  if (!src) return <span className="wallet-icon generic" style={{ width: size, height: size }}><Icon name="wallet" /></span>
  return <img className="wallet-icon" src={src} alt="" width={size} height={size} />
}
