/**
 * The answer of spec §7 GET /v1/account/{address}/balance, in the shape of Reown's blockchain API. The
 * api answers with it and the frame checks it on receipt; the route table is contracts/api.ts.
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
