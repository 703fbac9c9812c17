/**
 * Choosing a name (spec §2 RegisterAccountName): the label, checked by the spec §5 rule as it is typed,
 * then looked up: available, or taken with the free names like it to choose from. Register asks the
 * wallet to sign and the api to store it; while either works the form says so, and on any failure it
 * stays with the reason (spec §4, §8).
 */
import * as Name from '@doorway/shared/Name'
import { format } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { namesText } from '@doorway/shared/texts/names'
import { useAtomValue, useSetAtom } from 'jotai'
import { type FormEvent, useEffect, useId, useRef } from 'react'
import { Icon } from '../../components/Icon.js'
import { Placeholder } from '../../components/Placeholder.js'
import { accountAtom } from '../../core/connection.js'
import { shakeModalAtom } from '../../core/modal.js'
import {
  type Availability,
  availabilityAtom,
  chooseSuggestionAtom,
  nameCheckAtom,
  nameTextAtom,
  type Registration,
  registerNameAtom,
  registrationAtom,
  typeNameAtom,
} from '../../features/names/nameForm.js'
import './RegisterAccountName.css'

export function RegisterAccountName() {
  const account = useAtomValue(accountAtom)
  const text = useAtomValue(nameTextAtom)
  const check = useAtomValue(nameCheckAtom)
  const availability = useAtomValue(availabilityAtom)
  const registration = useAtomValue(registrationAtom)
  const type = useSetAtom(typeNameAtom)
  const choose = useSetAtom(chooseSuggestionAtom)
  const register = useSetAtom(registerNameAtom)
  const shake = useSetAtom(shakeModalAtom)
  const input = useRef<HTMLInputElement>(null)
  const id = useId()
  useEffect(() => input.current?.focus(), [])
  if (!account) return <Placeholder>{accountText.notConnected}</Placeholder>

  const busy = registration.status === 'signing' || registration.status === 'posting'
  const ruleError = check.status === 'invalid' ? namesText.rules[check.rule] : undefined
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    if (check.status !== 'valid') {
      input.current?.focus()
      return shake()
    }
    const outcome = await register()
    if (outcome.status !== 'registered' && outcome.status !== 'busy') shake()
  }
  const pick = (name: string) => {
    void choose(name)
    // The chosen name's button goes away with the list: the field it filled takes the focus.
    input.current?.focus()
  }
  const described = [`${id}-zone`, `${id}-hint`, ruleError && `${id}-error`].filter(Boolean).join(' ')
  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate aria-busy={busy}>
      <div className="field">
        <label htmlFor={id}>{namesText.label}</label>
        <div className="field-row">
          <input
            ref={input}
            id={id}
            className="search"
            value={text}
            onChange={(event) => void type(event.target.value)}
            readOnly={busy}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={!!ruleError}
            aria-describedby={described}
          />
          <span id={`${id}-zone`} className="name-zone">{`.${Name.defaultZone}`}</span>
        </div>
        <div id={`${id}-hint`} className="muted">
          {namesText.hint}
        </div>
        {ruleError && (
          <p id={`${id}-error`} className="error" role="alert">
            {ruleError}
          </p>
        )}
      </div>
      <Lookup availability={availability} onChoose={pick} disabled={busy} />
      <button type="submit" className="primary-button" aria-disabled={busy}>
        {namesText.register}
      </button>
      <Progress registration={registration} wallet={account.connector.name} />
    </form>
  )
}

/** Under the button: the wallet asking to sign, the api storing the name, or why it failed (each its own element: keyed). */
function Progress({ registration, wallet }: { registration: Registration; wallet: string }) {
  if (registration.status === 'signing')
    return (
      <div key="signing" className="stack center" role="status">
        <span className="spinner" aria-hidden="true" />
        <strong>{format(namesText.confirmIn, { wallet })}</strong>
        <p className="muted">{namesText.confirmHint}</p>
      </div>
    )
  if (registration.status === 'posting')
    return (
      <div key="posting" className="stack center" role="status">
        <span className="spinner" aria-hidden="true" />
        <strong>{format(namesText.registering, { name: registration.name })}</strong>
      </div>
    )
  if (registration.status === 'failed')
    return (
      <p className="error" role="alert">
        {registration.message}
      </p>
    )
  return null
}

/** What the lookup of a valid name says: checking, available, or taken with the free names like it. */
function Lookup({ availability, onChoose, disabled }: { availability: Availability; onChoose(name: string): void; disabled: boolean }) {
  const id = useId()
  if (availability.status === 'idle') return null
  if (availability.status === 'error')
    return (
      <p className="error" role="alert">
        {availability.message}
      </p>
    )
  return (
    <>
      <p className="name-availability" role="status" data-status={availability.status}>
        {availability.status === 'checking' ? <span className="spinner" aria-hidden="true" /> : <Icon name={availability.status === 'available' ? 'check' : 'alert'} />}
        {format(namesText[availability.status], { name: availability.name })}
      </p>
      {availability.status === 'taken' && availability.suggestions.length > 0 && (
        <>
          <h3 id={`${id}-suggestions`} className="list-title">
            {namesText.suggestions}
          </h3>
          <ul className="chips" aria-labelledby={`${id}-suggestions`}>
            {availability.suggestions.map((name) => (
              <li key={name}>
                <button type="button" className="secondary-button" disabled={disabled} onClick={() => onChoose(name)}>
                  {name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  )
}
