import type { Plugin } from 'vite'

/**
 * WalletConnect's SDKs call hosted services on their own: Verify (an iframe to verify.walletconnect.org)
 * and pulse telemetry, which fires even with telemetryEnabled: false. They skip both only when their
 * `isTestRun()` is true (`process.env.IS_VITEST === "true"`, which a browser never has). Local builds
 * make that function true at build time; production builds never get this plugin, so Verify stays on.
 * If an SDK upgrade changes the function, the build fails here rather than silently calling out.
 */
export function walletConnectOffline(): Plugin {
  const edits: Record<string, [from: string, to: string]> = {
    utils: ['typeof process<"u"&&process.env.IS_VITEST==="true"', 'true'],
    // In a test run the sign client looks for React Native's Linking on Node's `global`.
    'sign-client': ['global?.Linking', 'globalThis?.Linking'],
  }
  return {
    name: 'doorway:walletconnect-offline',
    transform(code, id) {
      const [, name] = /@walletconnect[\\/]([\w-]+)[\\/]dist[\\/]index\.js$/.exec(id) ?? []
      const edit = name && edits[name]
      if (!edit) return
      if (!code.includes(edit[0])) this.error(`walletConnectOffline: @walletconnect/${name} no longer has ${edit[0]}`)
      return { code: code.replaceAll(edit[0], edit[1]), map: null }
    },
  }
}

