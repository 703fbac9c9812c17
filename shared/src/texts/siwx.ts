// issue 13: sign-in on connect (spec §4); the §8 texts are in `errors`
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
export const siwxText = {
  ask: '{origin} asks you to sign in',
  hint: 'Sign a message in your wallet to show this account is yours. It sends no transaction and costs nothing.',
  account: 'Signing in as',
  sign: 'Sign in',
  cancel: 'Cancel',
  disconnect: 'Cancel and disconnect',
  checking: 'Checking your sign-in…',
  waiting: 'Sign the message in your wallet',
  required: 'This app needs you to sign in to stay connected.',
  signFailed: 'Your wallet could not sign the message. Please try again.',
  notAccepted: 'The app did not accept the signature. Please try again.',
} as const
