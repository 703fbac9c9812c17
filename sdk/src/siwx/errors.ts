/** Why a sign-in was refused: `code` is stable for code to branch on, the message is for people. */
export class SiwxError extends Error {
  override readonly name = 'SiwxError'

  constructor(
    readonly code: SiwxError.Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export declare namespace SiwxError {
  type Code =
    /** The text or a field breaks CAIP-122 (EIP-4361 for eip155). */
    | 'InvalidMessage'
    /** The message text is not the text of the session's data. */
    | 'MessageMismatch'
    /** A namespace no formatter or verifier knows. */
    | 'UnsupportedNamespace'
    /** A chain the verifier has no RPC URL or client for. */
    | 'UnknownChain'
    /** No verifier given for the session's namespace, and the storage does not verify either. */
    | 'NoVerifier'
    | 'Expired'
    | 'NotYetValid'
    /** The signature is not the account's (EIP-191, ERC-1271 or ERC-6492). */
    | 'InvalidSignature'
    /** The chain could not be asked (the RPC failed): nothing is known about the signature. */
    | 'Unavailable'
    /** The dapp's server refused the session; the message is the server's. */
    | 'Refused'
}
