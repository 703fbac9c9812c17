// Key export, rendered by the secure-site itself (docs/embedded-wallet.md §8).
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const exportKeyText = {
  title: 'Export your wallet',
  warning: 'Your recovery phrase and private keys give full control of this wallet. Anyone who sees them can take your funds. Doorway will never ask you for them.',
  confirm: 'To continue, confirm it is you: unless you signed in during the last 5 minutes, we send a code to the email of this wallet.',
  codeSent: 'We sent a 6-digit code to {email}.',
  start: 'Continue',
  starting: 'Checking your sign-in…',
  codeLabel: 'Code from the email',
  verify: 'Confirm',
  verifying: 'Checking the code…',
  reveal: 'Reveal',
  holdReveal: 'Hold to reveal',
  revealHint: 'Make sure nobody can see your screen.',
  phrase: 'Recovery phrase',
  privateKey: 'Private key (EVM)',
  // Not "private key": a label that contains another one's words makes a screen reader's (and a test's) lookup ambiguous.
  solanaKey: 'Solana secret key',
  solanaKeyHint: 'The 64-byte keypair in base58, as Phantom and Solflare import it.',
  copyPhrase: 'Copy recovery phrase',
  copyKey: 'Copy EVM private key',
  copySolanaKey: 'Copy Solana secret key',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the text instead',
  done: 'Done',
  cancel: 'Cancel',
  hidden: 'This screen is covered or hidden, so nothing is shown.',
} as const
