/**
 * Bech32 (BIP173) and Bech32m (BIP350) decoding, and the segwit address rules on top: the checksum,
 * the witness version and the program length. Decoding only: the api never makes addresses.
 */

const charset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const generator = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
const checksums = { bech32: 1, bech32m: 0x2bc830a3 } as const

export type Encoding = keyof typeof checksums

function polymod(values: readonly number[]): number {
  let chk = 1
  for (const value of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ value
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= generator[i]!
  }
  return chk >>> 0
}

const expand = (hrp: string) => [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)]

/** The human-readable part, the 5-bit data without its checksum, and which checksum it carries; undefined if none. */
export function decode(text: string): { hrp: string; words: number[]; encoding: Encoding } | undefined {
  // BIP173: at most 90 characters, one case only.
  if (text.length > 90 || (text !== text.toLowerCase() && text !== text.toUpperCase())) return undefined
  const lower = text.toLowerCase()
  const cut = lower.lastIndexOf('1')
  if (cut < 1 || cut + 7 > lower.length) return undefined
  const hrp = lower.slice(0, cut)
  if ([...hrp].some((c) => c.charCodeAt(0) < 33 || c.charCodeAt(0) > 126)) return undefined
  const words = [...lower.slice(cut + 1)].map((c) => charset.indexOf(c))
  if (words.some((w) => w < 0)) return undefined
  const sum = polymod([...expand(hrp), ...words])
  const encoding = (Object.keys(checksums) as Encoding[]).find((name) => checksums[name] === sum)
  return encoding && { hrp, words: words.slice(0, -6), encoding }
}

/** 5-bit words back to bytes; undefined when the padding is not zero bits as BIP173 requires. */
function toBytes(words: readonly number[]): Uint8Array | undefined {
  let acc = 0
  let bits = 0
  const out: number[] = []
  for (const word of words) {
    acc = (acc << 5) | word
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out.push((acc >> bits) & 0xff)
    }
  }
  if (bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) return undefined
  return Uint8Array.from(out)
}

/** A segwit address of the network whose prefix is `hrp` (BIP173/BIP350 rules), or undefined. */
export function decodeSegwit(hrp: string, text: string): { version: number; program: Uint8Array } | undefined {
  const decoded = decode(text)
  if (!decoded || decoded.hrp !== hrp || decoded.words.length === 0) return undefined
  const [version, ...rest] = decoded.words as [number, ...number[]]
  const program = toBytes(rest)
  if (version > 16 || !program || program.length < 2 || program.length > 40) return undefined
  // v0 is P2WPKH or P2WSH and uses Bech32; every later version uses Bech32m.
  if (version === 0 && (decoded.encoding !== 'bech32' || (program.length !== 20 && program.length !== 32))) return undefined
  if (version > 0 && decoded.encoding !== 'bech32m') return undefined
  return { version, program }
}
