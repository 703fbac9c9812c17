import { createStore, Provider, useAtomValue } from 'jotai'
import { Modal } from './Modal.js'
import { SecureFrame } from './features/embedded/SecureFrame.js'
import { embeddedId } from './core/connectors/Connector.js'
import { featuresAtom } from './core/config.js'
import { storedConnectorId } from './core/connection.js'
import { intentAtom } from './core/modal.js'

export function App({ store }: { store: ReturnType<typeof createStore> }) {
  return (
    <Provider store={store}>
      <Modal />
      <Secure />
    </Provider>
  )
}

/**
 * The embedded wallet's frame loads only when email or social login is on, and only once the person
 * opened the modal or a stored email-wallet session is to be restored: a visitor who never opens the
 * modal never fetches it (issue 14, docs/architecture.md §9a privacy before intent).
 */
function Secure() {
  const features = useAtomValue(featuresAtom)
  const intent = useAtomValue(intentAtom)
  const wanted = intent || storedConnectorId() === embeddedId
  return features && (features.email || features.socials) && wanted ? <SecureFrame /> : null
}
