// The Receive view.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const receiveText = {
  qr: 'QR code of your address',
  address: 'Your address',
  copy: 'Copy address',
  networks: 'Networks this address receives on',
  warning: 'Send only assets on these networks to this address. Assets sent on another network may be lost.',
} as const
