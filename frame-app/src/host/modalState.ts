/**
 * The modal's state as the host sees it (spec §3 ModalState): the core's open, view, loading and
 * connection, the account's own name from the names feature, and the embedded wallet's login and account type. Composed
 * here, on the host's side, so that the core need not know about names.
 */
import type * as Protocol from '@doorway/shared/Protocol'
import * as S from '@doorway/shared/Schema'
import { atom } from 'jotai'
import { accountAtom, accountsAtom, activeStatusAtom, toProtocol } from '../core/connection.js'
import type { Connector } from '../core/connectors/Connector.js'
import { loadingAtom, openAtom } from '../core/modal.js'
import { routeAtom } from '../core/router.js'
import { smartAccountDeployedAtom } from '../features/embedded/deployed.js'
import { userOf } from '../features/embedded/embedded.js'
import { accountIdentityAtom, type Identity } from '../features/names/names.js'

export const modalStateAtom = atom<Protocol.ModalState>((get) => {
  const account = get(accountAtom)
  const identity = get(accountIdentityAtom)
  const accounts = Object.values(get(accountsAtom)).map((a) => toProtocol(a).caipAddress)
  // spec §3: the EVM account's type where its wallet says (the embedded wallet), and whether a smart one is deployed.
  const accountType = get(accountsAtom).eip155?.connector.accountType
  const deployed = get(smartAccountDeployedAtom)
  return {
    open: get(openAtom),
    view: get(routeAtom).view,
    loading: get(loadingAtom),
    status: get(activeStatusAtom),
    ...(account && toProtocol(account)),
    ...(accounts.length && { accounts }),
    ...(identity.status === 'ready' && identity.identity && profileOf(identity.identity)),
    ...(account && userState(account.connector)),
    ...(accountType && { preferredAccountType: accountType }),
    ...(deployed !== undefined && { smartAccountDeployed: deployed }),
  }
})

/** spec §3 Account user (email, username): the login's email and a social sign-in's name; the picture is only the frame's to show. */
function userState(connector: Connector): Pick<Protocol.ModalState, 'user'> | undefined {
  const user = userOf(connector)
  return user && { user: { email: user.email, ...(user.username && { username: user.username }) } }
}

/** spec §3 profileName and profileImage, as far as the protocol carries them (an inline image stays in the frame). */
function profileOf(identity: Identity): Pick<Protocol.ModalState, 'profileName' | 'profileImage'> {
  const { name, imageUrl } = identity
  return { ...(name.length <= 255 && { profileName: name }), ...(S.url(imageUrl) && { profileImage: imageUrl }) }
}
