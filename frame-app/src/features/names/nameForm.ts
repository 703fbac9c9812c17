/**
 * The name form (RegisterAccountName; spec §5 name rule, §7 suggestions and registration, §8
 * name-registration messages): what is typed, whether it is free, and its registration. Only that
 * view imports it, so it loads with the view; the account's own name is names.ts.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import * as Ids from '@doorway/shared/Ids'
import { errors, format } from '@doorway/shared/Texts'
import { namesText } from '@doorway/shared/texts/names'
import * as Name from '@doorway/shared/Name'
import { atom } from 'jotai'
import { ApiError } from '../../api/client.js'
import { personalSign } from '../../core/connectors/personalSign.js'
import { apiAtom } from '../../core/api.js'
import { accountAtom } from '../../core/connection.js'
import { nameRegisteredAtom } from './names.js'
import { activeNetworkAtom } from '../../core/network.js'
import { historyAtom, pushAtom, replaceFromAtom } from '../../core/router.js'

export type NameRule = keyof typeof namesText.rules

/** A typed name against the spec §5 rule; the zone may be typed too, and is the only one there is. */
export type NameCheck = { status: 'empty' } | { status: 'invalid'; rule: NameRule } | { status: 'valid'; label: string; name: string }

export function checkName(text: string): NameCheck {
  const label = Name.stripZone(text.trim())
  if (!label) return { status: 'empty' }
  // The characters first: a name of 4 wrong characters is told what is wrong with them.
  if (!/^[a-zA-Z0-9-]*$/.test(label)) return { status: 'invalid', rule: 'characters' }
  if (!Name.isValidName(label)) return { status: 'invalid', rule: 'tooShort' }
  return { status: 'valid', label: label.toLowerCase(), name: `${label.toLowerCase()}.${Name.defaultZone}` }
}

/** The name as the person typed it. */
export const nameTextAtom = atom('')
export const nameCheckAtom = atom((get) => checkName(get(nameTextAtom)))

export type Availability =
  | { status: 'idle' }
  | { status: 'checking'; name: string }
  | { status: 'available'; name: string }
  | { status: 'taken'; name: string; suggestions: string[] }
  | { status: 'error'; name: string; message: string }
export const availabilityAtom = atom<Availability>({ status: 'idle' })

/** How long typing must pause before a name is looked up (our choice, like the Send receiver's). */
export const nameLookupDelayMs = 300

// A per-store slot for the debounce timer and the lookup in flight.
const lookupSlotAtom = atom(() => ({ timer: undefined as ReturnType<typeof setTimeout> | undefined, controller: undefined as AbortController | undefined }))

/**
 * Types the name: checked by the spec §5 rule at once; a valid one is looked up once typing pauses
 * (`delayMs`), a newer text cancelling the older lookup, waiting or in flight. The api's suggestions
 * (spec §7) say both: a name among the free ones is available, else they are what is free instead.
 * Resolves when this lookup is answered or cancelled.
 */
export const typeNameAtom = atom(null, (get, set, text: string, options: { delayMs?: number } = {}) => {
  const slot = get(lookupSlotAtom)
  clearTimeout(slot.timer)
  slot.controller?.abort()
  set(nameTextAtom, text)
  if (get(registrationAtom).status === 'failed') set(registrationAtom, { status: 'idle' })
  const check = get(nameCheckAtom)
  if (check.status !== 'valid') {
    set(availabilityAtom, { status: 'idle' })
    return Promise.resolve()
  }
  const controller = new AbortController()
  slot.controller = controller
  const { name, label } = check
  set(availabilityAtom, { status: 'checking', name })
  return new Promise<void>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve())
    const lookup = async () => {
      try {
        const free = (await get(apiAtom).suggestions(label, controller.signal)).filter((s) => !s.registered).map((s) => s.name.toLowerCase())
        if (controller.signal.aborted) return
        set(availabilityAtom, free.includes(name) ? { status: 'available', name } : { status: 'taken', name, suggestions: free })
      } catch (error) {
        if (!controller.signal.aborted) set(availabilityAtom, { status: 'error', name, message: (error as Error).message })
      } finally {
        resolve()
      }
    }
    const delayMs = options.delayMs ?? nameLookupDelayMs
    if (delayMs === 0) void lookup()
    else slot.timer = setTimeout(() => void lookup(), delayMs)
  })
})

/** A suggestion chosen: its label fills the field, and is looked up at once. */
export const chooseSuggestionAtom = atom(null, (_get, set, name: string) => set(typeNameAtom, name.split('.')[0] ?? name, { delayMs: 0 }))

export type Registration = { status: 'idle' } | { status: 'signing' | 'posting'; name: string } | { status: 'failed'; message: string }
/** Where the registration is: the wallet asking, the api posting, or why it failed (shown on the form). */
export const registrationAtom = atom<Registration>({ status: 'idle' })

export type RegisterOutcome = { status: 'registered'; name: string } | { status: 'refused' | 'rejected' | 'failed'; message: string } | { status: 'busy' }

/**
 * Registers the typed name for the connected account (spec §7): the wallet signs the registration
 * message (personal_sign), the api stores it, and the account's name is the new one at once. No
 * active network is 'Network not found', no account 'Address or auth connector not found'; a name
 * the rule or the lookup refuses never reaches the wallet. On any failure the modal returns to
 * RegisterAccountName (spec §4) with the api's reason, 'Signature declined' for a declined signature,
 * or 'Error registering name {name}' (spec §8).
 */
export const registerNameAtom = atom(null, async (get, set): Promise<RegisterOutcome> => {
  const registration = get(registrationAtom)
  if (registration.status === 'signing' || registration.status === 'posting') return { status: 'busy' }
  const fail = (status: 'refused' | 'rejected' | 'failed', message: string): RegisterOutcome => {
    set(registrationAtom, { status: 'failed', message })
    const history = get(historyAtom)
    if (history.at(-1)?.view !== 'RegisterAccountName') {
      if (history.some((r) => r.view === 'RegisterAccountName')) set(replaceFromAtom, 'RegisterAccountName', { view: 'RegisterAccountName' })
      else set(pushAtom, { view: 'RegisterAccountName' })
    }
    return { status, message }
  }
  const network = get(activeNetworkAtom)
  if (!network) return fail('refused', errors.networkNotFound)
  const account = get(accountAtom)
  if (!account) return fail('refused', errors.addressOrAuthConnectorNotFound)
  const check = get(nameCheckAtom)
  if (check.status !== 'valid') return fail('refused', check.status === 'invalid' ? namesText.rules[check.rule] : namesText.rules.tooShort)
  const availability = get(availabilityAtom)
  if (availability.status === 'taken' && availability.name === check.name) return fail('refused', format(namesText.taken, { name: check.name }))

  const { name } = check
  const message = Name.registrationMessage({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000), nonce: Ids.random() })
  set(registrationAtom, { status: 'signing', name })
  let signature: string
  try {
    signature = await personalSign(account, message)
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === Errors.codes.userRejected) return fail('rejected', errors.signatureDeclined)
    return fail('failed', format(errors.registerNameFailed, { name }))
  }
  set(registrationAtom, { status: 'posting', name })
  try {
    const coinType = Name.ensip11CoinType(Number(Caip.parseChainId(network.caipNetworkId).reference))
    await get(apiAtom).registerName(name, { coin_type: coinType, address: account.address, message, signature })
  } catch (error) {
    return fail('failed', error instanceof ApiError ? error.message : format(errors.registerNameFailed, { name }))
  }
  set(nameRegisteredAtom, { address: account.address, name })
  set(registrationAtom, { status: 'idle' })
  set(nameTextAtom, '')
  set(availabilityAtom, { status: 'idle' })
  set(replaceFromAtom, 'RegisterAccountName', { view: 'RegisterAccountNameSuccess', name })
  return { status: 'registered', name }
})
