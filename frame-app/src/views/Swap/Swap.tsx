// A lazy chunk: loaded only when features.swaps is on (spec §1).
import { ui } from '@doorway/shared/Messages'
import { Placeholder } from '../../components/Placeholder.js'

export default function Swap() {
  return <Placeholder>{ui.later.swap}</Placeholder>
}
