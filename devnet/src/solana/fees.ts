/**
 * A message's fee as litesvm charges it: 5000 lamports a signature, plus the priority fee its
 * ComputeBudget instructions ask for (price × limit, rounded up). getFeeForMessage and each
 * transaction's meta.fee read it here. `import * as Fees from './fees.js'`.
 */
import type { VersionedMessage } from '@solana/web3.js'

export const lamportsPerSignature = 5000

const computeBudget = 'ComputeBudget111111111111111111111111111111'
const maxComputeUnits = 1_400_000
// Without SetComputeUnitLimit the runtime reserves 3000 units per builtin instruction and 200,000 per
// other one (agave compute-budget-instruction, since "reserve minimal CUs for builtins").
const builtins = new Set([
  '11111111111111111111111111111111',
  computeBudget,
  'AddressLookupTab1e1111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
])

/** The lamports `message` costs its fee payer. */
export function fee(message: VersionedMessage): number {
  const programs = message.compiledInstructions.map((ix) => message.staticAccountKeys[ix.programIdIndex]?.toBase58() ?? '')
  let limit: number | undefined
  let microLamports = 0n
  message.compiledInstructions.forEach((ix, i) => {
    if (programs[i] !== computeBudget) return
    const data = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength)
    if (ix.data[0] === 2 && ix.data.length >= 5) limit = data.getUint32(1, true)
    if (ix.data[0] === 3 && ix.data.length >= 9) microLamports = data.getBigUint64(1, true)
  })
  const units = BigInt(Math.min(maxComputeUnits, limit ?? programs.reduce((sum, program) => sum + (builtins.has(program) ? 3000 : 200_000), 0)))
  const priority = (microLamports * units + 999_999n) / 1_000_000n
  return message.header.numRequiredSignatures * lamportsPerSignature + Number(priority)
}
