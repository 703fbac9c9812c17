import { errors } from '@doorway/shared/Texts'
import { type ReactNode, useId } from 'react'

/**
 * A labelled text field with its hint and its error beside it (announced, and tied to the input by
 * aria-describedby). What the person typed stays in the field whatever the error.
 */
export function Field(props: {
  label: string
  value: string
  onChange(value: string): void
  error?: string | undefined
  hint?: ReactNode
  inputMode?: 'decimal' | 'text'
  children?: ReactNode
}) {
  const id = useId()
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(' ')
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="field-row">
        <input
          id={id}
          className="search"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          inputMode={props.inputMode ?? 'text'}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!props.error}
          aria-describedby={described || undefined}
        />
        {props.children}
      </div>
      {props.hint && (
        <div id={`${id}-hint`} className="muted">
          {props.hint}
        </div>
      )}
      {props.error && (
        <p id={`${id}-error`} className="error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  )
}

/** spec §5: the message that sums up a send that cannot go on, under the step's button. */
export function InvalidSend({ shown }: { shown: boolean }) {
  return shown ? (
    <p className="error" role="alert">
      {errors.invalidSendInput}
    </p>
  ) : null
}
