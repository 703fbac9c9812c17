// The embedded wallet's login in the modal (spec §2 Connect, §5 rules, §7 30 s timeouts).
// A section of the text catalogue (../Texts.ts) in a module of its own: only the chunks
// that show these texts carry them.
// What the secure-site itself says (its email and code screens, key export): the screens' words, the server's
// refusals and the states of a request. A section of its own so the secure-site's bundle carries these and not
// the frame's.
export const secureText = {
  invalid: 'Enter a valid email address',
  codeInvalid: 'Enter the 6 digits of the code',
  timedOut: 'The secure wallet did not answer in 30 seconds. Check your connection and try again.',
  unavailable: 'The secure wallet could not be reached. Try again in a moment.',
  // the server's refusals (docs/embedded-wallet.md §4), one message each
  wrong: 'That code is not right. {n} attempts left.',
  wrongOne: 'That code is not right. 1 attempt left.',
  wrongLast: 'That code is not right. This was the last attempt: request a new code.',
  expired: 'This code has expired. Request a new code.',
  used: 'This code was already used. Request a new code.',
  exhausted: 'Too many wrong attempts. Request a new code.',
  otherDevice: 'This code was requested from another browser. Request a new code here.',
  locked: 'Too many failed attempts for this email. Sign-in is locked for 24 hours.',
  hourly: 'Too many codes for this email this hour. Please try again after {n} seconds',
  tampered: 'The wallet could not be rebuilt safely on this device, so nothing was signed.',
  mailFailed: 'The code email could not be sent. Try again in a moment.',
  // new-device approval (VERIFY_DEVICE, docs/embedded-wallet.md §4)
  approvalDenied: 'This browser was not approved, so nothing was unlocked. Send a new link to try again.',
  approvalExpired: 'The approval link has expired. Send a new link.',
  approvalThrottled: 'Too many approval links for this wallet this hour. Please try again after {n} seconds',
  substituted: 'The server answered with a wallet the vault did not vouch for, so nothing was unlocked.',
  rateLimited: 'Too many requests from this network. Please try again after {n} seconds',
  // the email and code screens, typed only in the secure-site's own DOM (secure-site/src/login/Login.ts)
  label: 'Email',
  placeholder: 'you@example.com',
  submit: 'Continue',
  continueIn: 'Continue in {n} s',
  sending: 'Sending code',
  retry: 'Try again',
  codeTitle: 'Enter the code',
  codeSent: 'We sent a 6-digit code to {email}',
  codeMailHint: 'It can take a few seconds to arrive. The code expires in 10 minutes.',
  digit: 'Digit {n} of 6',
  codeGroup: 'One-time code',
  verifying: 'Checking the code',
  resend: 'Resend code',
  resendIn: 'Resend code in {n} s',
  // a dead code (expired, used, too many tries, asked for elsewhere): only a new one helps
  newCode: 'Send a new code',
  newCodeIn: 'Send a new code in {n} s',
  resent: 'A new code is on its way',
  otherEmail: 'Use another email',
} as const

export const emailText = {
  ...secureText,
  // new-device approval (VERIFY_DEVICE): the modal waits while the person approves this browser from the mailed link
  linkSent: 'We sent a link to {email}. Open it on any device and approve this browser to use your wallet here.',
  linkHint: 'The link expires in 15 minutes. Keep this window open.',
  waitingApproval: 'Waiting for your approval…',
  sendingLink: 'Sending a new link…',
  resendLink: 'Resend link',
  resendLinkIn: 'Resend link in {n} s',
  linkResent: 'We sent a new link.',
  approvalTimedOut: 'No approval came in 15 minutes. Send a new link to try again.',
} as const
