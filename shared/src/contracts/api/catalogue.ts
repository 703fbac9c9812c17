/** The answer of spec §7 GET /getWallets, which the api gives and the frame checks; the table is contracts/api.ts. */
import * as S from '../Described.js'

const link = S.union(S.string({ max: 512 }), S.literal(null))

/** spec §3 wallet listing (plus the image url and rank the catalogue adds). */
export const walletListing = S.object({
  id: S.string({ min: 1, max: 128 }),
  name: S.string({ min: 1, max: 128 }),
  image_id: S.string({ max: 128 }),
  image_url: S.string({ max: 2048 }),
  rdns: S.union(S.string({ max: 128 }), S.literal(null)),
  chains: S.array(S.string({ max: 80 }), 64),
  mobile_link: link,
  desktop_link: link,
  webapp_link: link,
  homepage: link,
  app_store: link,
  play_store: link,
  chrome_store: link,
  badge_type: S.string({ max: 32 }),
  order: S.number,
})
export type WalletListing = S.Infer<typeof walletListing>

export const walletPage = S.object({ data: S.array(walletListing, 100), count: S.number })
