// The AllWallets view: the searchable catalogue.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const allWalletsText = {
  search: 'Search wallets',
  list: 'All wallets',
  empty: 'No wallet matches your search.',
  failed: 'The wallet list could not be loaded.',
} as const
