/**
 * Polkadot sign-ins verified on the dapp's server (spec §4 Sign-in). `@doorway/sdk/siwx` writes and reads
 * the CAIP-122 text but verifies nothing for polkadot: sr25519 needs `@polkadot/util-crypto` and its WASM
 * (about 220 KB gzip), too heavy for a page, so `serverSessions` defers to this.
 *
 * `import * as Polkadot from './polkadot.js'` → `Polkadot.verifier({ now })`.
 */
import { stringToU8a, u8aWrapBytes } from '@polkadot/util'
import { cryptoWaitReady, isAddress, signatureVerify } from '@polkadot/util-crypto'
import { formatMessage, SiwxError, timeProblem, type Verifier } from '@doorway/sdk/siwx'

// sr25519 runs in WASM that loads once per process; the first sign-in waits for it.
let ready: Promise<boolean> | undefined
const whenReady = () => (ready ??= cryptoWaitReady())

/** An SS58 address whose checksum holds (any network prefix: the account is its key, whichever chain it names). */
export function isPolkadotAddress(address: string): boolean {
  try {
    return isAddress(address)
  } catch {
    return false
  }
}

/**
 * polkadot sessions: the message is the text of its data, it is within its Not Before and Expiration
 * Time, the address is SS58, and `signature` (hex, what polkadot.js `signRaw` and WalletConnect's
 * `polkadot_signMessage` return) is the account's sr25519, ed25519 or ecdsa signature of the text.
 * No chain is asked: the account id is the key (or, for ecdsa, its hash).
 */
export function verifier(options: verifier.Options = {}): Verifier {
  const { now = Date.now } = options
  return {
    namespace: 'polkadot',
    async verify(session) {
      const { data, message, signature } = session
      if (String(data?.chainId).split(':')[0] !== 'polkadot') throw new SiwxError('UnsupportedNamespace', 'The polkadot verifier verifies polkadot sessions only')
      if (formatMessage(data) !== message) throw new SiwxError('MessageMismatch', 'The message is not the text of its data')
      const problem = timeProblem(data, now())
      if (problem) throw problem
      if (!isPolkadotAddress(data.accountAddress)) throw new SiwxError('InvalidMessage', `The address ${data.accountAddress} is not a Polkadot address (its SS58 checksum fails)`)
      // 64 bytes (sr25519, ed25519), 65 (ecdsa, or a MultiSignature's type byte and 64), 66 (its ecdsa)
      if (typeof signature !== 'string' || !/^0x(?:[0-9a-fA-F]{2}){64,66}$/.test(signature))
        throw new SiwxError('InvalidSignature', 'The signature is not a hex sr25519, ed25519 or ecdsa signature (64 to 66 bytes)')
      await whenReady()
      if (!signs(message, signature, data.accountAddress)) throw new SiwxError('InvalidSignature', `The signature is not ${data.accountAddress}'s`)
    },
  }
}
export declare namespace verifier {
  type Options = {
    /** The clock the time bounds are checked against (ms). */
    now?: () => number
  }
}

// polkadot.js `signRaw` (extensions) and WalletConnect's `polkadot_signMessage` sign `<Bytes>text</Bytes>`
// (u8aWrapBytes), so no signed text can pass for an extrinsic; a bare key (Keyring `pair.sign`, some
// hardware and CLI signers) signs the text itself. Either is the account vouching for this text, so both
// are accepted. signatureVerify 14.0.3 already retries the wrapped bytes when the bare ones fail
// and unwraps wrapped ones (util-crypto signature/verify.js; checked: each of the four pairings is valid),
// but both are asked for here so the rule does not hang on that fallback.
function signs(message: string, signature: string, address: string): boolean {
  const text = stringToU8a(message)
  return [text, u8aWrapBytes(text)].some((signed) => {
    try {
      const result = signatureVerify(signed, signature, address)
      // 'ethereum' matches a keccak address against the account id's last 20 bytes: an EVM account, not a
      // Polkadot one (its 32-byte id is a key or, for ecdsa, the key's blake2 hash, which 'ecdsa' checks)
      return result.isValid && result.crypto !== 'ethereum'
    } catch {
      return false
    }
  })
}
