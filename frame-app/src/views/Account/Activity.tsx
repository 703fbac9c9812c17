// A lazy chunk: loaded only when features.history is on (spec §1).
import { ui } from '@doorway/shared/Messages'
import { Placeholder } from '../../components/Placeholder.js'

export default function Activity() {
  return <Placeholder>{ui.later.history}</Placeholder>
}
