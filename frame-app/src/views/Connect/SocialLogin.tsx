// A lazy chunk: loaded only when features.socials lists providers (spec §1).
import { format, ui } from '@doorway/shared/Texts'
import type * as Protocol from '@doorway/shared/Protocol'
import { Placeholder } from '../../components/Placeholder.js'

export default function SocialLogin({ providers }: { providers: readonly (typeof Protocol.socials)[number][] }) {
  const names = new Intl.ListFormat('en-US', { type: 'conjunction' }).format(providers.map((p) => ui.socials[p]))
  return (
    <section aria-label={ui.connect.socials}>
      <Placeholder>{format(ui.later.socials, { providers: names })}</Placeholder>
    </section>
  )
}
