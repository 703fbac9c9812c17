/**
 * The sign-in and consent steps of a devnet social provider (provider.ts), on oidc-provider's
 * interaction API: `GET /${face}/interaction/:uid` shows the step's page, and its forms post to
 * `…/login`, `…/consent` and `…/abort`. oidc-provider binds the uid to the interaction cookie (path
 * scoped, SameSite=Lax), so a page elsewhere cannot post a step for someone else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import * as Email from '@doorway/shared/Email'
import type { Provider } from 'oidc-provider'
import { HttpError, readText, securityHeaders } from '../httpServer.js'
import type { Face, FaceInfo } from './faces.js'
import * as Pages from './pages.js'
import { type Directory, type Person, fromTestUser, fromTyped, isTestUserName } from './users.js'

/** One face's provider, its people, and how its pages name the client. */
export type Context = { face: Face; info: FaceInfo; provider: Provider; directory: Directory; clientName: string }

const actions = new Set(['', 'login', 'consent', 'abort'])
/** A sign-in form is a few short fields. */
const bodyBytes = 4 * 1024

export async function handle(context: Context, uid: string, action: string, req: IncomingMessage, res: ServerResponse) {
  if (!actions.has(action)) throw new HttpError(404, 'No such sign-in step')
  if ((action === '') !== (req.method === 'GET')) throw new HttpError(405, action === '' ? 'The sign-in page takes GET' : 'A sign-in step takes POST')
  const { provider } = context
  const details = await provider.interactionDetails(req, res)
  if (details.uid !== uid) throw new HttpError(400, 'This sign-in page is out of date: start again from the app')
  const path = `/${context.face}/interaction/${uid}`
  const prompt = details.prompt.name
  if (action === 'abort')
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false })
  if (action === '') return sendPage(res, 200, page(context, details, path))
  if (action === 'login' && prompt !== 'consent') return signIn(context, path, req, res)
  if (action === 'consent' && prompt === 'consent') return allow(context, details, req, res)
  throw new HttpError(400, `This sign-in is at the ${prompt} step`)
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>

function page(context: Context, details: Details, path: string): string {
  const { info, clientName } = context
  if (details.prompt.name === 'consent') {
    const person = details.session ? context.directory.get(details.session.accountId) : undefined
    const scopes = [...new Set(String(details.params.scope ?? '').split(' '))].filter((scope) => Object.hasOwn(info.scopeWords, scope))
    return Pages.consent({ face: info, clientName, action: path, who: person ? describe(person) : 'someone', scopes })
  }
  const hint = details.params.login_hint
  return Pages.login({ face: info, clientName, action: path, email: typeof hint === 'string' ? hint : undefined })
}

const describe = (person: Person) => (person.email ? `${person.name ?? person.username} (${person.email})` : (person.name ?? person.username))

async function signIn(context: Context, path: string, req: IncomingMessage, res: ServerResponse) {
  const form = new URLSearchParams(await readText(req, bodyBytes))
  const user = form.get('user')
  let person: Person
  if (user !== null) {
    if (!isTestUserName(user)) throw new HttpError(400, `No test user ${user}`)
    person = fromTestUser(user)
  } else {
    const email = Email.normalize(form.get('email'))
    if (!email) {
      const error = 'Enter a valid email address'
      return sendPage(res, 400, Pages.login({ face: context.info, clientName: context.clientName, action: path, email: form.get('email') ?? '', error }))
    }
    person = fromTyped(email, form.get('verified') === 'true', form.get('name')?.trim().slice(0, 100) || undefined)
  }
  const accountId = context.directory.register(person)
  // select_account is answered by the same page: picking an account is signing in.
  return context.provider.interactionFinished(req, res, { login: { accountId }, select_account: {} }, { mergeWithLastSubmission: false })
}

async function allow(context: Context, details: Details, req: IncomingMessage, res: ServerResponse) {
  const { provider } = context
  const accountId = details.session?.accountId
  if (!accountId) throw new HttpError(400, 'Sign in before allowing access')
  const grant =
    (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({ accountId, clientId: String(details.params.client_id) })
  const { missingOIDCScope, missingOIDCClaims } = details.prompt.details
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '))
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims)
  const grantId = await grant.save()
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
}

export function sendPage(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': Pages.csp }).end(html)
}
