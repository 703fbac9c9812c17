/**
 * The answers of spec §7's balance routes (GET /v1/account/{address}/balance, GET
 * /v1/convert/gas-price), in the shapes of Reown's blockchain API. The api
 * answers with them and the frame checks them on receipt; the route table is contracts/api.ts. Gas
 * prices sit here, not in convert.ts, because the frame's first script checks them (Send) while the
 * swap's shapes load with the Swap view.
 */
import * as S from '../Described.js'

/** spec §3 Token balance. */
export const balance = S.object({
  name: S.string({ max: 128 }),
  symbol: S.string({ max: 32 }),
  /** CAIP-2 */
  chainId: S.string({ max: 80 }),
  /** CAIP-10 of the token contract; absent for the network's native coin. */
  address: S.optional(S.string({ max: 200 })),
  /** quantity × price; absent when there is no price. */
  value: S.optional(S.number),
  price: S.number,
  /** Exact decimal string in whole units, e.g. '0.5'. */
  quantity: S.object({ decimals: S.string({ max: 4 }), numeric: S.string({ max: 96 }) }),
  iconUrl: S.string({ max: 2048 }),
})
export type Balance = S.Infer<typeof balance>
export const balances = S.object({ balances: S.array(balance, 512) })

const wei = S.string({ min: 1, max: 78, pattern: /^\d+$/ })
/** The node's price and two faster tiers, in wei per gas. */
export const gasPrice = S.object({ standard: wei, fast: wei, instant: wei })
