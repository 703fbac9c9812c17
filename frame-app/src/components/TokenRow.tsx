import * as Format from '@doorway/shared/Format'
import type { Balance } from '../api/client.js'

/** A token's icon, name and quantity (spec §9: 3 decimals). */
export function TokenRow({ token }: { token: Balance }) {
  return (
    <>
      <img src={token.iconUrl} alt="" width={32} height={32} />
      <span className="token-name">
        <span>{token.name}</span>
        <span className="muted">{`${Format.formatQuantity(token.quantity.numeric)} ${token.symbol}`}</span>
      </span>
    </>
  )
}
