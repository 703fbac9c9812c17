/**
 * The example's sign-in (issue 13): `@doorway/sdk/siwx` asks the demo origin's sign-in server
 * (examples/siwx-server, under /siwx/api/) for nonces and to verify and keep each sign-in; the server's
 * session cookie is what this page trusts. `?siwx=optional` makes signing in optional.
 */
import type { SiwxSession } from '@doorway/sdk'
import { createDefaultSiwx, serverSessions } from '@doorway/sdk/siwx'

const api = '/siwx/api'

export const siwx = createDefaultSiwx({
  statement: 'Sign in to the Doorway wagmi example',
  getNonce: async () => ((await answer(await fetch(`${api}/nonce`))) as { nonce: string }).nonce,
  storage: serverSessions(api),
  required: new URLSearchParams(location.search).get('siwx') !== 'optional',
})

/** The server's view: the session its cookie names, or undefined when nobody is signed in. */
export async function readSession(): Promise<SiwxSession | undefined> {
  const response = await fetch(`${api}/session`)
  if (response.status === 401) return undefined
  return (await answer(response)) as SiwxSession
}

export async function signOut(): Promise<void> {
  // a JSON body: the server takes no POST another site's form could send
  await answer(await fetch(`${api}/signout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }))
}

async function answer(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => ({}))) as { error?: string }
  if (!response.ok) throw new Error(body.error ?? `The sign-in server answered ${response.status}`)
  return body
}
