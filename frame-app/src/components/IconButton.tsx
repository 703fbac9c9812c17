import type { ComponentProps } from 'react'
import { Icon } from './Icon.js'

/** Every icon-only button has an accessible name. */
export function IconButton(props: { label: string; icon: ComponentProps<typeof Icon>['name']; onClick(): void; disabled?: boolean }) {
  return (
    <button type="button" className="icon-button" aria-label={props.label} title={props.label} onClick={props.onClick} disabled={props.disabled}>
      <Icon name={props.icon} />
    </button>
  )
}
