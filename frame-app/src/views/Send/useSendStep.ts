import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { replaceFromAtom } from '../../core/router.js'

/**
 * A step whose earlier steps are gone (the send was reset, e.g. by a send that finished meanwhile)
 * returns to the flow's start instead of showing half a form.
 */
export function useSendStep(ready: boolean) {
  const restart = useSetAtom(replaceFromAtom)
  useEffect(() => {
    if (!ready) restart('Send', { view: 'Send' })
  }, [ready, restart])
}
