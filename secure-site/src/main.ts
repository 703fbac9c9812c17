/**
 * The secure-site (docs/architecture.md §6, docs/embedded-wallet.md): its own origin, embedded only by the
 * frame-app. The embedded wallet's keys are made, kept and used only here; the frame gets addresses,
 * signatures and signed transactions. Every long operation carries the frame's `op` id so it can be
 * aborted (a 30 s timeout or the modal closing): its fetch is cancelled and a late answer is dropped.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import * as Logger from '@doorway/shared/Logger'
import * as Protocol from '@doorway/shared/Protocol'
import { expose } from 'comlink'
import * as LoginSteps from './login/steps.js'
import * as Device from './wallet/Device.js'
import * as Signer from './wallet/Signer.js'
import * as Wallet from './wallet/Wallet.js'

declare const __DOORWAY_FRAME_ORIGIN__: string
declare const __DOORWAY_VAULT_PUBLIC_KEY__: string
declare const __DOORWAY_VAULT_SIGNING_KEY__: string
declare const __DOORWAY_SERVER_PUBLIC_KEY__: string

const log = Logger.create({ scope: 'secure' })
const parentOrigin = Channel.parentOrigin()

// Only the frame-app's origin may talk to this frame; anything else gets no channel at all.
if (window.parent !== window && parentOrigin === __DOORWAY_FRAME_ORIGIN__) {
  const wallet = Wallet.create({
    store: Device.browserStore(),
    base: location.origin,
    vaultPublicKey: Base64url.decode(__DOORWAY_VAULT_PUBLIC_KEY__),
    vaultSigningKey: Base64url.decode(__DOORWAY_VAULT_SIGNING_KEY__),
    serverPublicKey: Base64url.decode(__DOORWAY_SERVER_PUBLIC_KEY__),
    onTampered: () => log.error('a share did not rebuild the committed address: nothing was signed'),
  })
  const login = LoginSteps.steps(wallet, document.body)
  const operations = new Map<string, AbortController>()
  // Every op id ever used here, so a replayed id is refused after its operation ended too (128-bit random ids never repeat by chance).
  const used = new Set<string>()
  /** Runs `work` under the frame's op id; `abort({ op })` cancels it. Each id is single-use, forever. */
  const operation = async <T>(op: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    if (used.has(op)) throw Errors.aborted()
    used.add(op)
    const controller = new AbortController()
    operations.set(op, controller)
    try {
      const result = await work(controller.signal)
      if (controller.signal.aborted) throw Errors.aborted()
      return result
    } finally {
      operations.delete(op)
    }
  }

  Channel.accept({ parentOrigin, log })
    .then((port) =>
      Channel.create<Protocol.SecureApi, Protocol.SecureClientApi>({
        port,
        log,
        accepts: Protocol.secureParams,
        expects: Protocol.secureClientResults,
        expose,
        handlers: {
          status: () => ({ version: Protocol.version, origin: location.origin }),
          // CSSOM only (the CSP allows no inline style): the values are checked by the protocol's schema.
          configure: ({ theme, accent, onAccent, locale }) => {
            const root = document.documentElement
            root.lang = locale
            root.dataset.theme = theme
            root.style.setProperty('--doorway-accent', accent)
            root.style.setProperty('--doorway-on-accent', onAccent)
            return null
          },
          restore: ({ op }) => operation(op, async (signal) => ({ account: await Wallet.restore(wallet, signal) })),
          emailStep: ({ op, host }) => operation(op, (signal) => login.email(attestedHost(host), signal)),
          codeStep: ({ op }) => operation(op, (signal) => login.code(signal)),
          awaitDevice: ({ op }) => operation(op, async (signal) => ({ account: await Wallet.awaitDevice(wallet, signal) })),
          resendDevice: ({ op }) => operation(op, async (signal) => ({ expiresAt: await Wallet.resendDevice(wallet, signal) })),
          // A social sign-in (docs/embedded-wallet.md §5) shows no screen here: the person is in the popup the frame opened.
          socialStart: ({ op, provider, host, redirect }) =>
            operation(op, async (signal) => ({ url: await Wallet.startSocial(wallet, provider, attestedHost(host), signal, redirect) })),
          socialResume: ({ op, flowId }) => operation(op, async () => ({ provider: await Wallet.resumeSocial(wallet, flowId) })),
          socialRedeem: ({ op }) =>
            operation(op, async (signal) => {
              const outcome = await Wallet.redeemSocial(wallet, signal)
              if (outcome === 'pending') return { state: outcome }
              // VERIFY_DEVICE: the device step names the email the vault mailed the approval link to.
              if (outcome === 'VERIFY_DEVICE') return { action: outcome, email: wallet.approval!.email }
              if (outcome === 'ADD_EMAIL') return { action: outcome }
              return { account: outcome }
            }),
          socialCancel: ({ op }) =>
            operation(op, async (signal) => {
              await Wallet.cancelSocial(wallet, signal)
              return null
            }),
          abort: ({ op }) => {
            operations.get(op)?.abort()
            return null
          },
          sign: ({ op, method, params, chainId, host, network, smartAccount }) =>
            // `revoke` too, for doorway_revokeSession: the api's record of the revoke (docs/embedded-wallet.md "Smart sessions").
            operation(op, (signal) =>
              Signer.sign({ wallet, method, params, chainId, ...(network && { network }), ...(smartAccount && { smartAccount }), host: attest(host), root: document.body, signal }),
            ),
          exportKey: ({ op, host }) =>
            operation(op, async (signal) => {
              // Rarely used: its screen loads only when asked for.
              const Export = await import('./export/Export.js')
              const { origin, attested } = attest(host)
              // What the export screen may do with the wallet; its code mail names the host as attested, or marked reported.
              const exporter = {
                exportCode: (named: string, request?: AbortSignal) => Wallet.exportCode(wallet, { host: named, attested }, request),
                exportSecret: (named: string, code?: string, request?: AbortSignal) => Wallet.exportSecret(wallet, named, code, request),
              }
              await Export.show(document.body, { wallet: exporter, host: origin, signal })
              return null
            }),
          manageWallet: ({ op, host }) =>
            operation(op, async (signal) => {
              // Rarely used, like the export: its screen loads only when asked for.
              const [Security, Manage] = await Promise.all([import('./security/Security.js'), import('./security/Manage.js')])
              const { origin, attested } = attest(host)
              await Security.show(document.body, { manager: Manage.manager(wallet, attested), host: origin, signal })
              return null
            }),
          signOut: async () => {
            for (const controller of operations.values()) controller.abort()
            await Wallet.signOut(wallet)
            return null
          },
        },
      }),
    )
    .catch((error) => log.error(error))
} else {
  log.warn('refusing to run for', parentOrigin ?? 'no parent')
}

/**
 * The dapp's origin as shown in the approval: browser-attested when `location.ancestorOrigins`
 * exists (the top-most ancestor), otherwise the origin the frame reported, marked so (docs/embedded-wallet.md §7).
 */
function attest(reported: string): { origin: string; attested: boolean } {
  const ancestors = location.ancestorOrigins
  const top = ancestors && ancestors.length > 0 ? ancestors[ancestors.length - 1] : undefined
  return top ? { origin: top, attested: true } : { origin: reported, attested: false }
}

/** `attest` as the mails take it: the host, and whether the browser attested it. */
function attestedHost(reported: string): { host: string; attested: boolean } {
  const { origin, attested } = attest(reported)
  return { host: origin, attested }
}
