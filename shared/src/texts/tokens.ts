// The Tokens tab of Account, and the balances the Send flow lists.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const tokensText = {
  unavailable: 'Token balances could not be loaded.',
  retry: 'Try again',
  retryIn: 'in {seconds} s',
  empty: 'No tokens on this network yet.',
} as const
