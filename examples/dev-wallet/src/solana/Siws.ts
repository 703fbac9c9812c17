/**
 * Sign In With Solana: the message text a `solana:signIn` wallet writes and signs, exactly as
 * @solana/wallet-standard-util's createSignInMessageText writes it (an ABNF close to EIP-4361).
 */

/** SolanaSignInInput (@solana/wallet-standard-features): every field optional, the wallet fills domain and address. */
export type Input = {
  domain?: string
  address?: string
  statement?: string
  uri?: string
  version?: string
  chainId?: string
  nonce?: string
  issuedAt?: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: readonly string[]
}

export function message(input: Input & { domain: string; address: string }): string {
  let text = `${input.domain} wants you to sign in with your Solana account:\n${input.address}`
  if (input.statement) text += `\n\n${input.statement}`
  const fields = [
    ['URI', input.uri],
    ['Version', input.version],
    ['Chain ID', input.chainId],
    ['Nonce', input.nonce],
    ['Issued At', input.issuedAt],
    ['Expiration Time', input.expirationTime],
    ['Not Before', input.notBefore],
    ['Request ID', input.requestId],
  ].flatMap(([name, value]) => (value ? [`${name}: ${value}`] : []))
  // The reference writes the heading for an empty list too.
  if (input.resources) fields.push('Resources:', ...input.resources.map((resource) => `- ${resource}`))
  if (fields.length) text += `\n\n${fields.join('\n')}`
  return text
}
