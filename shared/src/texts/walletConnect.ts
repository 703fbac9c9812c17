// The WalletConnect pairing view (ConnectingWalletConnect): the QR code, links and ways to connect.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const walletConnectText = {
  anyWallet: 'your wallet',
  ways: 'Ways to connect',
  tabs: { qrcode: 'QR Code', mobile: 'Mobile', browser: 'Browser', web: 'Web App', desktop: 'Desktop' },
  scan: 'Scan this QR code with your phone',
  qr: 'QR code to connect {wallet}',
  creating: 'Preparing a connection',
  relayTimeout: 'The connection service did not answer. Check your internet connection and try again.',
  copyLink: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'Could not copy the link',
  open: 'Open {wallet}',
  noWallet: "Don't have {wallet}?",
  get: 'Get',
  webHint: '{wallet} opens in a new tab, where you accept the connection.',
  desktopHint: 'Open the {wallet} app on this computer and accept the connection.',
  browserHint: 'Install the {wallet} browser extension, then reload this page to connect with it.',
  getExtension: 'Get the extension',
  declinedHint: 'The connection was declined in {wallet}. Try again for a new code.',
  otherWallets: 'Wallets',
} as const
