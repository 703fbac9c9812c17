import { DoorwayError } from '@doorway/shared/Errors'

// JSON-RPC 2.0 "Invalid params": the request is malformed, not refused by the person.
const invalidParams = -32602

/** A request the secure-site will not show: malformed params, or an address or chain that is not ours. */
export class InvalidRequest extends DoorwayError {
  override readonly name: string = 'InvalidRequest'

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: invalidParams })
  }
}
