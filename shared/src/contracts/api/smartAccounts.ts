/**
 * The answer of GET /v1/smart-accounts/:chainId (issue 25): a network's ERC-4337 bundler, its optional
 * ERC-7677 paymaster and MetaMask's Delegation Framework there, as the api's operator configured them.
 * The table is contracts/api.ts.
 */
import * as S from '../Described.js'

/**
 * How the Delegation Framework's contracts may be named and how many of each: the api's config check
 * (api/src/configCheck.ts) holds the operator's file to the same bounds, so no configured answer fails
 * the frame's check. MetaMask's v1.3.0 deployment has 3 implementations and 33 caveat enforcers.
 */
export const limits = { name: /^[A-Za-z][A-Za-z0-9]{0,63}$/, implementations: 16, caveatEnforcers: 128 } as const

type Address = `0x${string}`
const addressPattern = /^0x[0-9a-fA-F]{40}$/
const address = S.refine(S.string({ pattern: addressPattern }), (x): x is Address => addressPattern.test(x))

/** Contract name → address; typed with every value present, as the kit's `SmartAccountsEnvironment` is. */
const named = (max: number) =>
  S.refine(S.record(S.string({ pattern: limits.name }), address, max), (x): x is Record<string, Address> => Object.values(x).every((v) => v !== undefined))

/** The kit's `SmartAccountsEnvironment`; the frame's HybridDeleGator accounts need that implementation. */
export const environment = S.object({
  EntryPoint: address,
  DelegationManager: address,
  SimpleFactory: address,
  implementations: S.refine(
    named(limits.implementations),
    (x): x is { HybridDeleGatorImpl: Address } & Record<string, Address> => x.HybridDeleGatorImpl !== undefined,
    // JSON Schema's `required` names a declared property: the record's other names stay additionalProperties
    { properties: { HybridDeleGatorImpl: { type: 'string', pattern: addressPattern.source } }, required: ['HybridDeleGatorImpl'] },
  ),
  caveatEnforcers: named(limits.caveatEnforcers),
})
export type Environment = S.Infer<typeof environment>

/** GET /v1/smart-accounts/:chainId: no paymasterUrl when the network's user operations are not sponsored. */
export const smartAccounts = S.object({
  chainId: S.string({ max: 80 }),
  bundlerUrl: S.url,
  paymasterUrl: S.optional(S.url),
  environment,
})
export type SmartAccounts = S.Infer<typeof smartAccounts>
