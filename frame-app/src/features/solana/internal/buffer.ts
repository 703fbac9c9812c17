/**
 * `@solana/spl-token` encodes its instructions with the Node `Buffer` global, which browsers do not
 * have; web3.js carries the `buffer` package, which is given here before the first instruction is
 * built. Imported first by the Solana chunk's entry (SolanaSend.ts), so only that chunk has it.
 */
import { Buffer } from 'buffer'

const scope = globalThis as { Buffer?: unknown }
scope.Buffer ??= Buffer
