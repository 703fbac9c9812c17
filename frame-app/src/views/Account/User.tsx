import * as S from '@doorway/shared/Schema'
import { useState } from 'react'
import type { User as Login } from '../../features/embedded/embedded.js'

/**
 * spec §3 Account user: the embedded wallet's login. After a social sign-in the provider's name stands
 * beside the email, isolated (<bdi>: it may run right to left), with their picture before it. The picture
 * is decorative (the name says who), shown only from an http(s) URL, and dropped if it does not load
 * (gone at the provider, or outside the frame's CSP img-src).
 */
export function User({ user }: { user: Login }) {
  const { email, username, avatar } = user
  const [broken, setBroken] = useState<string>()
  const picture = avatar !== undefined && S.url(avatar) && broken !== avatar ? avatar : undefined
  return (
    <p className="identity-user">
      {picture && <img className="identity-user-avatar" src={picture} alt="" width={20} height={20} referrerPolicy="no-referrer" onError={() => setBroken(picture)} />}
      {username && <bdi className="identity-username">{username}</bdi>}
      <span className="muted identity-email">{email}</span>
    </p>
  )
}
