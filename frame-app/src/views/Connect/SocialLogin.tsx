// A lazy chunk: loaded only when features.socials lists providers (spec §1). Connect's social row
// (issue 24): a click opens the sign-in window at once and shows ConnectingSocial (features/embedded/socialLogin.ts).
import { format, ui } from '@doorway/shared/Texts'
import type * as Protocol from '@doorway/shared/Protocol'
import { socialText } from '@doorway/shared/texts/social'
import { useAtomValue, useSetAtom } from 'jotai'
import { useId, useState } from 'react'
import { chooseSocialAtom, redirectModeAtom, socialRow, wayOf } from '../../features/embedded/socialLogin.js'
import './SocialLogin.css'

type Provider = (typeof Protocol.socials)[number]

export default function SocialLogin({ providers }: { providers: readonly (typeof Protocol.socials)[number][] }) {
  const choose = useSetAtom(chooseSocialAtom)
  const redirect = useAtomValue(redirectModeAtom)
  const [expanded, setExpanded] = useState(false)
  const moreId = useId()
  const { first, icons, more } = socialRow(providers)
  if (!first) return null
  // The window opens here, synchronously in the click: an await before it would lose the click's activation.
  // In redirect mode (spec §7 social-redirect) no window opens: the page itself goes.
  const pick = (provider: Provider) => () => void choose({ provider, popup: wayOf(provider, redirect) })
  const name = (provider: Provider) => format(socialText.continueWith, { provider: ui.socials[provider] })
  return (
    <section aria-label={ui.connect.socials} className="stack">
      <button type="button" className="list-button" onClick={pick(first)}>
        <SocialLogo provider={first} />
        <span>{name(first)}</span>
      </button>
      {icons.length > 0 && (
        <div className="social-row">
          {icons.map((provider) => (
            <button key={provider} type="button" className="social-icon" aria-label={name(provider)} title={name(provider)} onClick={pick(provider)}>
              <SocialLogo provider={provider} />
            </button>
          ))}
          {more.length > 0 && (
            <button
              type="button"
              className="social-icon"
              aria-label={socialText.more}
              title={socialText.more}
              aria-expanded={expanded}
              aria-controls={moreId}
              onClick={() => setExpanded(!expanded)}
            >
              <SocialLogo provider="more" />
            </button>
          )}
        </div>
      )}
      {more.length > 0 && (
        <ul id={moreId} className="list social-more" hidden={!expanded}>
          {more.map((provider) => (
            <li key={provider}>
              <button type="button" className="list-button" onClick={pick(provider)}>
                <SocialLogo provider={provider} />
                <span>{name(provider)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

// Monochrome marks in the text colour, drawn in strokes on a 24 px grid: a few bytes each (this chunk is measured).
const logos: Record<Provider | 'more', string> = {
  google: 'M20 12a8 8 0 1 1-2.3-5.7M20 12h-7.5',
  github:
    'M9 19c-4 1.4-4-2-6-2.5m12 4.5v-3.5c0-1 .1-1.4-.5-2 2.8-.3 5.5-1.4 5.5-6a4.6 4.6 0 0 0-1.3-3.2 4.2 4.2 0 0 0-.1-3.2s-1.1-.3-3.5 1.3a12 12 0 0 0-6.2 0C6.5 2.8 5.4 3.1 5.4 3.1a4.2 4.2 0 0 0-.1 3.2A4.6 4.6 0 0 0 4 9.5c0 4.6 2.7 5.7 5.5 6-.6.6-.6 1.2-.5 2V21',
  apple: 'M12 8C10 6.5 6 7 5.5 11.5S8 21 10 20.5c1-.3 1.3-.5 2-.5s1 .2 2 .5c2 .5 4.5-3.5 5-5.5-3-1.5-3-5.5-.5-7C16.5 6.5 14 7 12 8zm0 0c0-2 1.5-4 3.5-4.5',
  x: 'M4 4h4l12 16h-4zm15 0-6.2 7.1M11.2 12.9 5 20',
  discord: 'M8 7.5a12 12 0 0 1 8 0M8 7c-2 .5-3 1-3 1-2 3-2.5 6-2 9 1.5 1.2 3 1.8 4.5 2l1-2M16 7c2 .5 3 1 3 1 2 3 2.5 6 2 9-1.5 1.2-3 1.8-4.5 2l-1-2M7 16.5c3 1.5 7 1.5 10 0M9.5 12.5h.01m5 0h.01',
  facebook: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm3-13h-1.5a2 2 0 0 0-2 2v11m-2-8h5',
  farcaster: 'M4 4h16M6 4v16m12-16v16M9 20v-5a3 3 0 0 1 6 0v5',
  more: 'M6 12h.01M12 12h.01M18 12h.01',
}

/** A provider's mark, decorative: the button around it carries the name. */
export function SocialLogo({ provider, size = 20 }: { provider: Provider | 'more'; size?: number }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width={size} height={size}>
      <path d={logos[provider]} fill="none" stroke="currentColor" strokeWidth={provider === 'more' ? 3 : 2} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
