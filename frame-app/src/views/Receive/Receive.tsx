// A lazy chunk: loaded only when features.receive is on (spec §1).
import { ui } from '@doorway/shared/Messages'
import { Placeholder } from '../../components/Placeholder.js'

export default function Receive() {
  return <Placeholder>{ui.later.receive}</Placeholder>
}
