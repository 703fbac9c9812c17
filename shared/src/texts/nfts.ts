// The NFTs tab of Account.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const nftsText = {
  empty: 'No NFTs yet',
  failed: 'NFTs could not be loaded.',
  count: '×{n}',
  owned: '{n} owned',
  loadMore: 'Load more',
  retry: 'Retry',
} as const
