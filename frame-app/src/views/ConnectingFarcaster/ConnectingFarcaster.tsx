/**
 * ConnectingFarcaster (spec §2; issue 24, docs/embedded-wallet.md §5): Sign In With Farcaster. The relay's
 * connect URI as a QR code and a copyable link on a desktop, the Farcaster app's link on a phone; the
 * flow is redeemed meanwhile (features/embedded/socialLogin.ts), and leaving the view ends it. An account
 * that is no one's yet goes on to EmailLogin, where the email the person adds links it.
 */
import { farcasterText, socialText } from '@doorway/shared/texts/social'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useId } from 'react'
import { QrCode } from '../../components/QrCode.js'
import { useCopy } from '../../components/useCopy.js'
import { mobileAtom } from '../../core/config.js'
import { notifyAtom } from '../../core/host.js'
import { cancelSocialAtom, leaveSocialAtom, retrySocialAtom, socialAtom } from '../../features/embedded/socialLogin.js'
import { SocialLogo } from '../Connect/SocialLogin.js'
import '../ConnectingSocial/ConnectingSocial.css'

export default function ConnectingFarcaster() {
  const social = useAtomValue(socialAtom)
  const mobile = useAtomValue(mobileAtom)
  const retry = useSetAtom(retrySocialAtom)
  const cancel = useSetAtom(cancelSocialAtom)
  const leave = useSetAtom(leaveSocialAtom)
  const notify = useSetAtom(notifyAtom)
  const copy = useCopy()
  const headingId = useId()
  // Back, close or any other view: a flow whose view is gone must not connect later.
  useEffect(() => () => leave(), [leave])
  const phase = social?.phase ?? 'failed'
  const url = phase === 'waiting' ? social?.url : undefined
  const busy = phase === 'waiting'

  return (
    <section className="stack center social-step" aria-labelledby={headingId}>
      <h2 id={headingId}>{farcasterText.title}</h2>
      {busy && !mobile && (url ? <QrCode value={url} label={farcasterText.qr} /> : <Creating />)}
      {busy && mobile && (
        <span className="social-mark">
          <SocialLogo provider="farcaster" size={32} />
        </span>
      )}
      <div role="status" className="social-status">
        {busy && <p className="muted">{url ? (mobile ? farcasterText.approveHere : farcasterText.scan) : farcasterText.creating}</p>}
      </div>
      {social?.error && (
        <p className="error" role="alert">
          {social.error}
        </p>
      )}
      {busy && mobile && (
        // The host opens the app link from the top window, inside this tap (as ConnectingWalletConnect).
        <button type="button" className="primary-button" disabled={!url} onClick={() => url && notify({ type: 'navigate', url })}>
          {farcasterText.open}
        </button>
      )}
      {busy && !mobile && (
        <button type="button" className="secondary-button" disabled={!url} onClick={() => url && copy(url, { copied: farcasterText.copied, failed: farcasterText.copyFailed })}>
          {farcasterText.copyLink}
        </button>
      )}
      {!busy && (
        <button type="button" className="primary-button" onClick={() => void retry('qr')}>
          {socialText.retry}
        </button>
      )}
      <button type="button" className="list-button social-cancel" onClick={cancel}>
        {socialText.cancel}
      </button>
    </section>
  )
}

function Creating() {
  return (
    <div className="qr qr-loading" role="progressbar" aria-label={farcasterText.creating}>
      <span className="spinner" aria-hidden="true" />
    </div>
  )
}
