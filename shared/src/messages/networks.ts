// The Networks view.
// A section of the message catalogue (../Messages.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const networksText = {
  list: 'Networks',
  active: 'Active',
  testnet: 'Testnet',
  switching: 'Switching network',
} as const
