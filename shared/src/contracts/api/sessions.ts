/** The answers of spec §7's smart-session routes (/v1/sessions/*); the table is contracts/api.ts. */
import * as S from '../Described.js'

/** A smart session (an ERC-7715 permission) an address granted, and whether it was revoked since. */
export const session = S.object({
  address: S.string({ max: 64 }),
  /** The permission context id. */
  pci: S.string({ min: 1, max: 256 }),
  chainId: S.string({ max: 80 }),
  permissions: S.unknown,
  /** Unix seconds. */
  expiry: S.number,
  revoked: S.boolean,
  /** Unix milliseconds. */
  createdAt: S.number,
})
export const sessions = S.object({ pcis: S.array(session, 10_000) })
