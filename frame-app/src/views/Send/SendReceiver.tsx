/**
 * The Send flow's receiver step: an EVM address (spec §5), shown with its EIP-55 checksum, or a name
 * resolved through the api (spec §7 /v1/profile/account/{name}), shown with its address and avatar
 * before anything is sent. Sending to yourself or to a token contract warns.
 */
import { format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { useAtom, useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { accountAtom, namespaceOf } from '../../core/connection.js'
import { shakeModalAtom } from '../../core/modal.js'
import { type Identity, identityOfAtom } from '../../features/names/names.js'
import { pushAtom } from '../../core/router.js'
import { draftAtom, resolveNameAtom, sendAtom, setReceiverAtom } from '../../features/send/send.js'
import * as Rules from '../../features/send/sendRules.js'
import { Field, InvalidSend } from './Field.js'
import { useSendStep } from './useSendStep.js'

type Resolved = { address: string; name?: string; imageUrl?: string | undefined }
type Lookup = { state: 'idle' } | { state: 'resolving'; name: string } | { state: 'resolved'; name: string; profile: Resolved } | { state: 'failed'; name: string; message: string }

// How long typing must pause before a name is looked up (our choice, like the wallet search's §9 delay).
const lookupDelayMs = 300

export function SendReceiver() {
  const account = useAtomValue(accountAtom)
  const send = useAtomValue(sendAtom)
  const [draft, setDraft] = useAtom(draftAtom)
  const setReceiver = useSetAtom(setReceiverAtom)
  const push = useSetAtom(pushAtom)
  const shake = useSetAtom(shakeModalAtom)
  const [error, setError] = useState<string>()
  const receiver = Rules.parseReceiver(draft.receiver, account ? namespaceOf(account.chainId) : 'eip155')
  const lookup = useLookup(receiver.kind === 'name' ? receiver.name : undefined)
  useSendStep(!!send.token && !!send.sendTokenAmount)
  if (!account || !send.token) return null

  const target: Resolved | undefined =
    receiver.kind === 'address' ? { address: receiver.address } : lookup.state === 'resolved' && receiver.kind === 'name' ? lookup.profile : undefined
  const warnings = target ? Rules.receiverWarnings(target.address, { from: account.address, tokens: send.tokenBalances }) : []
  const type = (text: string) => {
    setDraft((d) => ({ ...d, receiver: text }))
    setError(undefined)
  }
  const next = () => {
    if (!target) {
      setError(
        receiver.kind === 'invalid' ? sendText.errors[receiver.error] : lookup.state === 'failed' ? lookup.message : sendText.errors.receiverInvalid,
      )
      return shake()
    }
    setReceiver(target)
    push({ view: 'SendPreview' })
  }
  const shownError = error ?? (receiver.kind === 'invalid' && receiver.error === 'receiverChecksum' ? sendText.errors.receiverChecksum : undefined) ?? (lookup.state === 'failed' ? lookup.message : undefined)
  return (
    <form className="stack" onSubmit={(event) => (event.preventDefault(), next())} noValidate>
      <Field label={sendText.receiver} value={draft.receiver} onChange={type} error={shownError} hint={sendText.receiverHint} />
      {lookup.state === 'resolving' && <span className="spinner" role="progressbar" aria-label={format(sendText.resolving, { name: lookup.name })} />}
      {target && <ReceiverCard receiver={target} />}
      {warnings.map((warning) => (
        <p key={warning} className="warning" role="note">
          {sendText[warning]}
        </p>
      ))}
      <button type="submit" className="primary-button">
        {sendText.continue}
      </button>
      <InvalidSend shown={!!error} />
    </form>
  )
}

/**
 * Who receives: the name and avatar when a name was given or the address goes by one (spec §7
 * identity, cached 5 min), and always the checksummed address.
 */
export function ReceiverCard({ receiver }: { receiver: Resolved }) {
  const known = useIdentity(receiver.name ? undefined : receiver.address)
  const { name, imageUrl } = receiver.name ? receiver : { name: known?.name, imageUrl: known?.imageUrl }
  return (
    <div className="receiver" aria-label={sendText.to} role="group">
      {imageUrl ? <img src={imageUrl} alt="" width={40} height={40} /> : <span className="receiver-avatar" aria-hidden="true" />}
      <span className="receiver-text">
        {name && <strong>{name}</strong>}
        {/* In full even under a name: the address is what the person checks before sending. */}
        <span className="address" title={receiver.address}>
          {receiver.address}
        </span>
      </span>
    </div>
  )
}

/** The name `address` goes by, once known; a newer address cancels the older lookup. */
function useIdentity(address: string | undefined): Identity | undefined {
  const identityOf = useSetAtom(identityOfAtom)
  const [found, setFound] = useState<{ address: string; identity: Identity | undefined }>()
  useEffect(() => {
    if (!address) return
    const controller = new AbortController()
    identityOf(address, controller.signal).then(
      (identity) => setFound({ address, identity }),
      // The address is what is sent, and it is shown either way: a name that cannot be read is only not shown.
      () => {},
    )
    return () => controller.abort()
  }, [address, identityOf])
  return found && found.address === address ? found.identity : undefined
}

/** Resolves a name once typing pauses; a newer name cancels the older lookup. */
function useLookup(name: string | undefined): Lookup {
  const resolve = useSetAtom(resolveNameAtom)
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' })
  useEffect(() => {
    if (!name) return setLookup({ state: 'idle' })
    setLookup({ state: 'resolving', name })
    const controller = new AbortController()
    const timer = setTimeout(() => {
      resolve(name, controller.signal).then(
        (profile) => setLookup({ state: 'resolved', name, profile }),
        (error: Error) => !controller.signal.aborted && setLookup({ state: 'failed', name, message: error.message }),
      )
    }, lookupDelayMs)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [name, resolve])
  return lookup.state !== 'idle' && lookup.name !== name ? { state: 'idle' } : lookup
}
