import { createStore, Provider, useAtomValue } from 'jotai'
import { Modal } from './components/Modal.js'
import { SecureFrame } from './secure/SecureFrame.js'
import { featuresAtom } from './state/config.js'

export function App({ store }: { store: ReturnType<typeof createStore> }) {
  return (
    <Provider store={store}>
      <Modal />
      <Secure />
    </Provider>
  )
}

/** The embedded wallet's frame loads only when email or social login is on. */
function Secure() {
  const features = useAtomValue(featuresAtom)
  return features && (features.email || features.socials) ? <SecureFrame /> : null
}
