/**
 * The dapp's sign-in on the host page (issue 13, spec §4): `siwx`, or AppKit's older `siweConfig`. Their
 * functions never cross to the frame; the frame calls them by name through the host channel (names
 * allowlisted in Protocol.siwxFunctions) and does the rest itself (frame-app/src/features/siwx/siwx.ts), so the
 * host script carries only this.
 */
import type * as Protocol from '@doorway/shared/Protocol'

type Target = Record<string, ((...args: unknown[]) => unknown) | undefined>

/** One call from the frame. A message object crosses as its data and its text, never with its methods. */
export async function call(target: object | undefined, { fn, args }: { fn: Protocol.SiwxFunction; args: unknown[] }) {
  // An optional function the dapp left out (getRequired, getMessageParams, onSignIn…) answers null.
  const result = (target as Target | undefined)?.[fn] ? await (target as Target)[fn]!(...args) : null
  return fn === 'createMessage' && typeof result === 'object' && result
    ? { data: JSON.parse(JSON.stringify(result)) as unknown, message: String(result) }
    : (result ?? null)
}
