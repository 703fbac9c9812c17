import { unsupportedText } from '@doorway/shared/texts/unsupported'
import { useSetAtom } from 'jotai'
import { closeModalAtom } from '../../core/modal.js'
import { Networks } from '../Networks/Networks.js'

/** The wallet is on a chain the dapp did not configure (spec §4): switch to one it did. */
export function UnsupportedChain() {
  const close = useSetAtom(closeModalAtom)
  return (
    <div className="stack">
      <p className="placeholder">{unsupportedText.message}</p>
      <Networks onSwitched={close} />
    </div>
  )
}
