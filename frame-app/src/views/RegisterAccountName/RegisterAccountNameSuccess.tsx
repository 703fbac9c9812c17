/** A name registered (spec §2 RegisterAccountNameSuccess): which one, and the way back to the account. */
import { format } from '@doorway/shared/Texts'
import { namesText } from '@doorway/shared/texts/names'
import { useSetAtom } from 'jotai'
import { Icon } from '../../components/Icon.js'
import { resetAtom } from '../../core/router.js'
import type { RouteOf } from '../../core/routes.js'

export function RegisterAccountNameSuccess({ route }: { route: RouteOf<'RegisterAccountNameSuccess'> }) {
  const reset = useSetAtom(resetAtom)
  return (
    <div className="stack center">
      <div className="result-status" role="status" data-status="confirmed">
        <Icon name="check" />
        <h2>{format(namesText.registered, { name: route.name })}</h2>
      </div>
      <p className="muted">{namesText.registeredHint}</p>
      <button type="button" className="primary-button" onClick={() => reset({ view: 'Account' })}>
        {namesText.backToAccount}
      </button>
    </div>
  )
}
