// Social sign-in (issue 24; spec §1 socials, §7 30 s; docs/embedded-wallet.md §5): Connect's provider
// buttons and the ConnectingSocial view in the frame, and what the secure-site says of a flow itself.
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks that show these
// texts carry them. The providers' names are the core catalogue's (`ui.socials`).

/**
 * What the secure-site says of a flow itself. The server's refusals (denied, an answer that could not be
 * checked, no verified email, expired, used) arrive in the server's own words, naming the provider.
 */
export const secureSocialText = {
  /** The server answered a popup address other than this origin's own start page: the popup is not sent there. */
  unsafeStart: 'The sign-in could not be started safely. Try again in a moment.',
  noFlow: 'This sign-in expired or was cancelled: start again',
  /** After a Farcaster sign-in that is no one's yet: Farcaster gives no email, and the wallet's new devices are approved by mail. */
  addEmail: 'Farcaster signed you in, but it shares no email. Add yours: it approves this wallet on your other devices.',
  /** Redirect mode in a browser that keeps nothing for the wallet: the page that comes back could not finish. */
  noStorage: 'This browser does not let the wallet finish a sign-in after leaving the page. Open the page in your browser, or continue with email.',
} as const

export const socialText = {
  continueWith: 'Continue with {provider}',
  more: 'More sign-in options',
  signIn: 'Sign in with {provider} in the window that opened.',
  progress: 'Signing in',
  // The window reads closed: one last look at the server before saying so (socialLogin.ts).
  checking: 'The sign-in window closed. Checking whether you finished…',
  blocked: 'Your browser blocked the sign-in window.',
  closed: 'The sign-in window was closed before you finished.',
  retry: 'Try again',
  cancel: 'Cancel',
  // Redirect mode (spec §7 social-redirect): the page itself goes to the provider and comes back.
  redirecting: 'Taking you to {provider}…',
  returning: 'Finishing your sign-in with {provider}…',
  redirectRefused: 'This page could not go to {provider}. Try again, or continue with email.',
  redirectInvalid: 'This sign-in link is not valid. Go back to the app and start again.',
  leaving: 'Taking you to the sign-in…',
} as const

/** ConnectingFarcaster (spec §2): Sign In With Farcaster, by QR code on a desktop, by the app's link on a phone. */
export const farcasterText = {
  title: 'Sign in with Farcaster',
  qr: 'QR code to sign in with Farcaster',
  scan: 'Scan with your phone’s camera or the Farcaster app, then approve.',
  approveHere: 'Open Farcaster and approve the sign-in.',
  creating: 'Preparing the sign-in…',
  open: 'Open Farcaster',
  copyLink: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'The link could not be copied',
} as const
