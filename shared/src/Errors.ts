import * as Texts from './Texts.js'

// Bundled into the SDK: keep this module to classes and a few lookups, no helpers library.

/** Stable numeric codes: EIP-1193 provider codes plus spec §8 default and invalid-chain codes. */
export const codes = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902, // spec §8
  default: 5000, // spec §8
  invalidChainId: 32603, // spec §8
} as const

export type Code = (typeof codes)[keyof typeof codes]

export declare namespace DoorwayError {
  type Options = { code?: number; cause?: unknown }
}

export class DoorwayError extends Error {
  override readonly name: string = 'DoorwayError'
  readonly code: number

  constructor(message: string, options: DoorwayError.Options = {}) {
    // no `cause` key at all when there is none, so logs don't show `cause: undefined`
    super(message, 'cause' in options ? { cause: options.cause } : undefined)
    this.code = options.code ?? codes.default
  }
}

/** An EIP-1193 provider error (wallet or embedded-wallet RPC). */
export class ProviderRpcError extends DoorwayError {
  override readonly name: string = 'ProviderRpcError'
}

/** A bad createModal option, e.g. both `siweConfig` and `siwx` (spec §5); its code is the default's. */
export class ConfigError extends DoorwayError {
  override readonly name: string = 'ConfigError'
}

/** A malformed CAIP-2 network id or CAIP-10 account id (spec §5). */
export class CaipError extends DoorwayError {
  override readonly name: string = 'CaipError'
  /** The offending value; kept off the message so the spec's text stays exact. */
  readonly input: unknown

  constructor(kind: 'chainId' | 'accountId', input: unknown) {
    super(kind === 'chainId' ? Texts.invalidChainId : Texts.invalidAccountId, {
      code: kind === 'chainId' ? codes.invalidChainId : codes.default,
    })
    this.input = input
  }
}

type ProviderCode = Exclude<Code, typeof codes.default>

/** The error class for a code: ProviderRpcError for provider codes (every code but the default), else DoorwayError keeping the code. */
function make(code: number, message: string): DoorwayError {
  return new (code !== codes.default && Object.values(codes).includes(code as Code) ? ProviderRpcError : DoorwayError)(message, { code })
}

/**
 * The error for a code, with the standard text when no message is given (an empty message is as
 * useless as none). Wallets send codes of their own: those keep their code with 'Something went wrong'.
 */
export function fromCode(code: number, message?: string): DoorwayError {
  const standard: Record<number, string> = {
    [codes.userRejected]: Texts.userRejected,
    [codes.unauthorized]: Texts.unauthorized,
    [codes.unsupportedMethod]: Texts.unsupportedMethod,
    [codes.disconnected]: Texts.disconnected,
    [codes.chainDisconnected]: Texts.chainDisconnected,
    [codes.unrecognizedChain]: Texts.unrecognizedChain,
    [codes.invalidChainId]: Texts.invalidChainId,
  }
  return make(code, message || standard[code] || Texts.somethingWentWrong)
}

// Each factory names only its own text, so a bundle carries only the texts it raises.
function provider(code: ProviderCode, message: string): ProviderRpcError {
  return new ProviderRpcError(message, { code })
}

export function userRejected(message?: string): ProviderRpcError {
  return provider(codes.userRejected, message || Texts.userRejected)
}

export function unauthorized(message?: string): ProviderRpcError {
  return provider(codes.unauthorized, message || Texts.unauthorized)
}

export function unsupportedMethod(message?: string): ProviderRpcError {
  return provider(codes.unsupportedMethod, message || Texts.unsupportedMethod)
}

export function disconnected(message?: string): ProviderRpcError {
  return provider(codes.disconnected, message || Texts.disconnected)
}

export function chainDisconnected(message?: string): ProviderRpcError {
  return provider(codes.chainDisconnected, message || Texts.chainDisconnected)
}

export function unrecognizedChain(message?: string): ProviderRpcError {
  return provider(codes.unrecognizedChain, message || Texts.unrecognizedChain)
}

export function siweAndSiwx(): ConfigError {
  return new ConfigError(Texts.siweConfigAndSiwx) // spec §5
}

export function invalidOption(option: string): ConfigError {
  // Bundled into the SDK: a plain replace rather than the catalogue's format(), for size.
  return new ConfigError(Texts.invalidOption.replace('{option}', option))
}

export function aborted(): DoorwayError {
  return new DoorwayError(Texts.requestAborted) // spec §8
}

/** spec §7: embedded-wallet requests time out */
export function timedOut(): DoorwayError {
  return new DoorwayError(Texts.requestTimedOut)
}

/** A request naming a wallet uuid the host never announced (docs/architecture.md §4). */
/** EIP-1474 -32602: a call whose params its receiver's schema refused. */
export function invalidParams(): ProviderRpcError {
  return new ProviderRpcError(Texts.invalidParams, { code: -32602 })
}

export function unknownWallet(): ProviderRpcError {
  return provider(codes.unauthorized, Texts.unknownWallet)
}

/** spec §4 EVM network switch: neither switching nor adding worked. */
export function chainNotSupported(cause?: unknown): DoorwayError {
  return new DoorwayError(Texts.errors.chainNotSupported, { code: codes.unrecognizedChain, cause })
}

export function notInitialized(): DoorwayError {
  return new DoorwayError(Texts.errors.notInitialized)
}

export function featureOff(view: string, feature: string): ConfigError {
  return new ConfigError(Texts.format(Texts.errors.featureOff, { view, feature }))
}

export function frameUnavailable(): DoorwayError {
  return new DoorwayError(Texts.frameUnavailable)
}

export type Serialized = { code: number; message: string }

/**
 * Plain form for the postMessage boundary, where class identity is lost. Anything that is neither a
 * DoorwayError nor `{ code, message }`-shaped (as wallets throw) becomes the default: internal
 * messages of unexpected errors are not forwarded to the host page.
 */
export function serialize(err: unknown): Serialized {
  const { code, message } = err instanceof DoorwayError ? err : deserialize(err)
  return { code, message }
}

/** Rebuilds an error received over postMessage; malformed input becomes 5000 'Something went wrong'. */
export function deserialize(x: unknown): DoorwayError {
  if (typeof x === 'object' && x !== null) {
    const { code, message } = x as { code?: unknown; message?: unknown }
    if (typeof code === 'number' && Number.isInteger(code) && typeof message === 'string')
      return make(code, message || Texts.somethingWentWrong)
  }
  return make(codes.default, Texts.somethingWentWrong)
}
