import { ui } from '@doorway/shared/Texts'
import { useAtomValue, useSetAtom } from 'jotai'
import { closeModalAtom, goBackAtom } from '../core/modal.js'
import { canGoBackAtom, routeAtom } from '../core/router.js'
import { closeLockedAtom } from '../features/siwx/siwx.js'
import { IconButton } from './IconButton.js'

export function Header({ titleId }: { titleId: string }) {
  const route = useAtomValue(routeAtom)
  const canGoBack = useAtomValue(canGoBackAtom)
  const goBack = useSetAtom(goBackAtom)
  const close = useSetAtom(closeModalAtom)
  // spec §4: no closing the sign views while sign-in is required
  const locked = useAtomValue(closeLockedAtom)
  return (
    <header className="header">
      {canGoBack ? <IconButton label={ui.modal.back} icon="back" onClick={goBack} /> : <span className="icon-spacer" />}
      {/* keyed so the title fades in on each view (spec §2: header text 120 ms) */}
      <h1 id={titleId} key={route.view} className="title">
        {ui.views[route.view]}
      </h1>
      <IconButton label={ui.modal.close} icon="close" onClick={close} disabled={locked} />
    </header>
  )
}
