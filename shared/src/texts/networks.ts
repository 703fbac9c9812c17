// The Networks view.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const networksText = {
  list: 'Networks',
  active: 'Active',
  testnet: 'Testnet',
  switching: 'Switching network',
} as const
