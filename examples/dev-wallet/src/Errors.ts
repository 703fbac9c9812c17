/** EIP-1193 / EIP-1474 errors as the wallet throws them: an Error with a numeric `code`. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

// EIP-1193 §Provider Errors: the standard messages.
export const userRejected = () => new ProviderError(4001, 'User rejected the request.')

export const unauthorized = () =>
  new ProviderError(4100, 'The requested account and/or method has not been authorized by the user.')

export const unsupportedMethod = (method: string) =>
  new ProviderError(4200, `The Provider does not support the requested method: ${method}.`)

// EIP-3326: the text MetaMask and most wallets use, which dapps sometimes match on.
export const unrecognizedChain = (chainIdHex: string) => new ProviderError(4902, `Unrecognized chain ID "${chainIdHex}".`)

export const invalidParams = (message: string) => new ProviderError(-32602, message)
