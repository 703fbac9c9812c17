import { useAtomValue } from 'jotai'
import { toastAtom } from '../core/toasts.js'
import { Icon } from './Icon.js'

const icons = { success: 'check', info: 'info', error: 'alert' } as const

/** A polite live region that is always present, so screen readers hear each toast. */
export function ToastView() {
  const { toast, visible } = useAtomValue(toastAtom)
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toast && (
        <div className="toast" data-variant={toast.variant} data-visible={visible}>
          {toast.variant === 'loading' ? <span className="spinner" aria-hidden="true" /> : <Icon name={icons[toast.variant]} />}
          <span className="toast-text">
            <span>{toast.message}</span>
            {toast.detail && <span className="toast-detail">{toast.detail}</span>}
          </span>
        </div>
      )}
    </div>
  )
}
