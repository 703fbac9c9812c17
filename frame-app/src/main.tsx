import * as Channel from '@doorway/shared/Channel'
import * as Logger from '@doorway/shared/Logger'
import { ui } from '@doorway/shared/Texts'
import { createStore } from 'jotai'
import { createRoot } from 'react-dom/client'
import { App } from './App.js'
import { connect } from './host/connect.js'
import { wire } from './wire.js'
import './styles.css'

const log = Logger.create({ scope: 'frame' })
const root = document.getElementById('root')!
const parentOrigin = window.parent !== window ? Channel.parentOrigin() : undefined

if (!parentOrigin) {
  root.textContent = ui.frame.standalone
} else {
  // One store per modal instance (docs/architecture.md §5); this document is one instance.
  const store = createStore()
  wire(store)
  createRoot(root).render(<App store={store} />)
  connect({ store, log, parentOrigin }).catch((error) => log.error(error))
}
