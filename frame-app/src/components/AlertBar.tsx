import { ui } from '@doorway/shared/Texts'
import { useAtomValue, useSetAtom } from 'jotai'
import { alertAtom, dismissAlertAtom } from '../core/alerts.js'
import { IconButton } from './IconButton.js'

export function AlertBar() {
  const alert = useAtomValue(alertAtom)
  const dismiss = useSetAtom(dismissAlertAtom)
  if (!alert) return null
  return (
    <div className="alert" role="alert">
      <div>
        <strong>{alert.title}</strong>
        <p>{alert.message}</p>
      </div>
      <IconButton label={ui.modal.dismissAlert} icon="close" onClick={dismiss} />
    </div>
  )
}
