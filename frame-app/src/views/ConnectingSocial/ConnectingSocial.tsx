/**
 * ConnectingSocial (issue 24, docs/embedded-wallet.md §5): the person signs in at the provider in the
 * window their click opened, while the flow is redeemed (features/embedded/socialLogin.ts). Waiting,
 * the window closed, blocked or refused, each with its way on; leaving the view ends the flow.
 */
import { format, ui } from '@doorway/shared/Texts'
import { socialText } from '@doorway/shared/texts/social'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useId } from 'react'
import type { RouteOf } from '../../core/routes.js'
import { cancelSocialAtom, leaveSocialAtom, redirectModeAtom, retrySocialAtom, socialAtom, wayOf } from '../../features/embedded/socialLogin.js'
import { SocialLogo } from '../Connect/SocialLogin.js'
import './ConnectingSocial.css'

export default function ConnectingSocial({ route }: { route: RouteOf<'ConnectingSocial'> }) {
  const social = useAtomValue(socialAtom)
  const retry = useSetAtom(retrySocialAtom)
  const cancel = useSetAtom(cancelSocialAtom)
  const leave = useSetAtom(leaveSocialAtom)
  const headingId = useId()
  // Back, close or any other view: a flow whose view is gone must not connect later.
  useEffect(() => () => leave(), [leave])
  const provider = { provider: ui.socials[route.provider] }
  const phase = social?.phase ?? 'failed'
  const busy = phase in progress
  const problem = phase === 'blocked' ? socialText.blocked : phase === 'closed' ? socialText.closed : social?.error
  // The window opens here, synchronously in the click, as on Connect (or, in redirect mode, the page goes).
  const redirect = useAtomValue(redirectModeAtom)
  const again = () => void retry(wayOf(route.provider, redirect))

  return (
    <section className="stack center social-step" aria-labelledby={headingId}>
      <span className="social-mark">
        <SocialLogo provider={route.provider} size={32} />
      </span>
      <h2 id={headingId}>{format(socialText.continueWith, provider)}</h2>
      <div role="status" className="social-status">
        {busy && (
          <>
            <span className="spinner" role="progressbar" aria-label={socialText.progress} />
            <p className="muted">{format(progress[phase as keyof typeof progress], provider)}</p>
          </>
        )}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {!busy && (
        <button type="button" className="primary-button" onClick={again}>
          {phase === 'blocked' ? format(socialText.continueWith, provider) : socialText.retry}
        </button>
      )}
      <button type="button" className="list-button social-cancel" onClick={cancel}>
        {socialText.cancel}
      </button>
    </section>
  )
}

/** What each phase in progress says (redirect mode: leaving for the provider, back from it). */
const progress = {
  waiting: socialText.signIn,
  checking: socialText.checking,
  redirecting: socialText.redirecting,
  returning: socialText.returning,
} as const
