// The Account view: the address, balance, tabs and wallet actions.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const accountText = {
  copy: 'Copy address',
  copied: 'Address copied',
  copyFailed: 'Could not copy the address',
  balance: 'Balance',
  balanceUnavailable: 'Balance unavailable',
  // issue 23: no Polkadot chain is read in this version; say so instead of showing zero.
  balanceNotSupported: 'Balances are not shown for {network} yet.',
  disconnect: 'Disconnect',
  unsupportedNetwork: 'Unsupported network',
  notConnected: 'No wallet is connected.',
  connect: 'Connect a wallet',
  network: 'Network',
  sections: 'Account sections',
  tokens: 'Tokens',
  nfts: 'NFTs',
  activity: 'Activity',
  historyOff: 'Transaction history is turned off for this app.',
  actions: 'Wallet actions',
  // The wallet features of walletFeaturesOrder (spec §1), as Account's action buttons.
  features: { onramp: 'Buy', swaps: 'Swap', receive: 'Receive', send: 'Send' },
} as const
