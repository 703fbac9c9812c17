/**
 * The answer of GET /v1/account/{address}/nfts (issue 10, beside spec §7): a page of the NFTs an account
 * holds, which the api gives and the frame checks (loaded with its NFTs tab). The table is contracts/api.ts.
 */
import * as S from '../Described.js'
import { cursor, image, name } from './history.js'

export const nft = S.object({
  /** `<caip2>:<contract>:<tokenId>` */
  id: S.string({ min: 1, max: 256 }),
  chain: S.string({ max: 80 }),
  /** Checksummed. */
  contract: S.string({ max: 128 }),
  tokenId: S.string({ max: 80 }),
  standard: S.literal('erc721', 'erc1155'),
  name,
  collection: S.object({ name }),
  // How many the account holds (ERC-1155 can be many); a count in decimal digits or a number.
  amount: S.union(S.string({ min: 1, max: 78, pattern: /^\d+$/ }), S.refine(S.number, (x) => Number.isSafeInteger(x) && x >= 0, { type: 'integer', minimum: 0 })),
  /** Absent when there is no image. */
  content: S.optional(S.object({ preview: image })),
  flags: S.object({ is_spam: S.boolean }),
})

/** A held NFT as the api writes it: its amount in decimal digits. */
export type Nft = S.Infer<typeof nft> & { amount: string }

export const nftPage = S.object({ data: S.array(nft, 100), next: cursor })
