// The Activity tab (spec §2 transaction history display).
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const activityText = {
  operations: {
    send: 'Sent',
    receive: 'Received',
    trade: 'Swapped',
    mint: 'Minted',
    burn: 'Burned',
    approve: 'Approved',
    deposit: 'Deposited',
    withdraw: 'Withdrew',
    borrow: 'Borrowed',
    repay: 'Repaid',
    claim: 'Claimed',
    execute: 'Executed',
    deploy: 'Deployed',
    buy: 'Bought',
  },
  status: { confirmed: 'Confirmed', failed: 'Failed', pending: 'Pending' },
  to: 'To {address}',
  from: 'From {address}',
  route: '{from} → {to}',
  nft: 'NFT',
  explorer: '{entry}: view on the explorer',
  empty: 'No activity yet',
  loadMore: 'Load more',
  retry: 'Retry',
} as const
