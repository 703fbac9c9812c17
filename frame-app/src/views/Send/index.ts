// The Send flow's views: one lazy chunk, loaded only when features.send is on (spec §1).
export { Send } from './Send.js'
export { SendAmount } from './SendAmount.js'
export { SendConfirm } from './SendConfirm.js'
export { SendPreview } from './SendPreview.js'
export { SendReceiver } from './SendReceiver.js'
export { SendResult } from './SendResult.js'
