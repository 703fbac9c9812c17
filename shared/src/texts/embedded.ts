// The embedded (email) wallet once connected: its account actions, approvals and key export.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const embeddedText = {
  name: 'Email wallet',
  signOut: 'Sign out',
  signedOut: 'Signed out of the email wallet on this device',
  fund: 'Fund 1 ETH (devnet)',
  approveTitle: 'Approve in the secure wallet',
  approveHint: 'The request is shown by the secure wallet, on its own origin. Review it there.',
  notAllowed: 'Action not allowed: {method}',
  export: 'Export wallet',
  exportHint: 'Your recovery phrase and key are shown only by the secure wallet, on its own origin.',
} as const
