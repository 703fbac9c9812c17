// A lazy chunk: loaded only when features.email is on (spec §1).
import { format, ui } from '@doorway/shared/Messages'
import { useAtomValue } from 'jotai'
import { Placeholder } from '../../components/Placeholder.js'
import { secureStatusAtom } from '../../state/secure.js'

export default function EmailLogin() {
  const secure = useAtomValue(secureStatusAtom)
  return (
    <section className="stack" aria-label={ui.connect.email}>
      <Placeholder>{ui.later.email}</Placeholder>
      <p className="muted" role="status">
        {secure.state === 'ready'
          ? format(ui.secure.ready, { origin: secure.origin })
          : secure.state === 'error'
            ? ui.secure.error
            : ui.secure.loading}
      </p>
    </section>
  )
}
