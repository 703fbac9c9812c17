/**
 * The onramp calls (spec §7 /v1/onramp/*, POST /v1/generators/onrampurl) and their spec §8 fallbacks:
 * a module of its own, with their answers' schemas (the api's contract, shared/src/contracts/api/onramp.ts),
 * so that they load with the OnRamp chunk, not with the frame (as accountPages.ts).
 */
import * as Onramp from '@doorway/shared/contracts/api/onramp'
import { call, type Context } from './client.js'
import * as Fallbacks from './fallbacks.js'

/**
 * spec §7 GET /v1/onramp/options; spec §8: on failure, the built-in sample options, and `fallback`
 * says so (the view shows it, and offers no Buy on them). A cancelled call is not a failure.
 */
export function onrampOptions(context: Context, signal?: AbortSignal) {
  return call<'GET /v1/onramp/options'>(context, 'GET', '/v1/onramp/options', Onramp.options, { signal }).then(
    (options) => ({ options, fallback: false }),
    (error: unknown) => {
      if (signal?.aborted) throw error
      return { options: Fallbacks.onrampOptions, fallback: true }
    },
  )
}

/** spec §7 POST /v1/onramp/quote; spec §8: on failure, the mocked quote with id mocked-quote-id. A cancelled call rejects. */
export function onrampQuote(context: Context, body: Onramp.QuoteRequest, signal?: AbortSignal) {
  return call<'POST /v1/onramp/quote'>(context, 'POST', '/v1/onramp/quote', Onramp.quote, { body, signal }).catch((error: unknown) => {
    if (signal?.aborted) throw error
    return Fallbacks.mockedQuote(body)
  })
}

/** spec §7 POST /v1/generators/onrampurl: the provider's buy page ('' where the network is unsupported). */
export function onrampUrl(context: Context, body: Onramp.UrlRequest, signal?: AbortSignal) {
  return call<'POST /v1/generators/onrampurl'>(context, 'POST', '/v1/generators/onrampurl', Onramp.url, { body, signal }).then((r) => r.url)
}
