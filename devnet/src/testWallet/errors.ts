/** The errors the test wallet answers session requests with. */

// EIP-1193 / EIP-3326 / CAIP-25 error codes with the messages the specs give.
export const rpcErrors = {
  unauthorized: { code: 4100, message: 'The requested account and/or method has not been authorized by the user.' },
  unsupported: { code: 4200, message: 'The Provider does not support the requested method.' },
  unknownChain: { code: 4902, message: 'Unrecognized chain ID.' },
  invalidParams: { code: -32602, message: 'Invalid method parameters.' },
  internal: { code: -32603, message: 'Internal error.' },
} as const

/** Thrown by a request handler: the session request is answered with `rpc`. */
export class RpcError extends Error {
  constructor(readonly rpc: { code: number; message: string }) {
    super(rpc.message)
  }
}
