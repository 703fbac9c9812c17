// A lazy chunk: loaded only when features.send is on (spec §1).
import { ui } from '@doorway/shared/Messages'
import { Placeholder } from '../../components/Placeholder.js'

export default function Send() {
  return <Placeholder>{ui.later.send}</Placeholder>
}
