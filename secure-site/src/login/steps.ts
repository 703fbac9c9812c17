/**
 * The email login's two steps over this page's wallet (main.ts's `emailStep` and `codeStep`,
 * docs/embedded-wallet.md §4): the screens of Login.ts, given the wallet's requests, and what the page
 * keeps between them: the email typed last (shown again when the person comes back to the email step)
 * and when its code went out (a new one only 30 s later, spec §5). A step given up on (the view left,
 * the modal closed), another email or Escape withdraws the mailed code at the server at once.
 */
import * as Constants from '@doorway/shared/Constants'
import { secureText } from '@doorway/shared/texts/email'
import { secureSocialText } from '@doorway/shared/texts/social'
import * as Wallet from '../wallet/Wallet.js'
import * as Login from './Login.js'

export function steps(wallet: Wallet.Wallet, root: HTMLElement) {
  let typedEmail = ''
  let codeSentAt = 0
  const giveUp = (signal: AbortSignal) => async (error: unknown): Promise<never> => {
    if (signal.aborted) await Wallet.cancelEmail(wallet)
    throw error
  }
  return {
    /** The email form until a code is mailed, naming `origin` (the host as attested, or reported). */
    async email(origin: { host: string; attested: boolean }, signal: AbortSignal) {
      const send = (email: string, request: AbortSignal) => Wallet.connectEmail(wallet, email, origin, request)
      // After a Farcaster sign-in that is no one's yet: the email this adds links it (Wallet.redeemSocial's ADD_EMAIL).
      const note = wallet.link && secureSocialText.addEmail
      const outcome = await Login.showEmail(root, { email: typedEmail, send, signal, ...(note && { note }) }).catch(giveUp(signal))
      if (outcome === 'close') return { action: 'close' as const }
      typedEmail = outcome.email
      codeSentAt = Date.now()
      return { action: 'VERIFY_OTP' as const }
    },
    /** The code screen of the code last mailed: the account, VERIFY_DEVICE with the email, or the way out. */
    async code(signal: AbortSignal) {
      const { challenge } = wallet
      if (!challenge) throw new Wallet.Refusal(secureText.expired, 'expired')
      const { email, host, attested } = challenge
      const outcome = await Login.showCode(root, {
        email,
        verify: (code, request) => Wallet.connectOtp(wallet, code, request),
        resend: (request) => Wallet.connectEmail(wallet, email, { host, attested }, request),
        resendAt: codeSentAt + Constants.emailLoginThrottleMs,
        signal,
      }).catch(giveUp(signal))
      if ('account' in outcome) return outcome
      if (outcome.action === 'VERIFY_DEVICE') return { action: outcome.action, email }
      await Wallet.cancelEmail(wallet)
      return outcome
    },
  }
}
