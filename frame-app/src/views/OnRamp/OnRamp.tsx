// A lazy chunk: loaded only when features.onramp is on (spec §1).
import { ui } from '@doorway/shared/Messages'
import { Placeholder } from '../../components/Placeholder.js'

export default function OnRamp() {
  return <Placeholder>{ui.later.onramp}</Placeholder>
}
