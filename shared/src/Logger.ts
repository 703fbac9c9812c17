import * as Constants from './Constants.js'

// Bundled into the SDK: a ring buffer and a prefix, nothing more.

export type Level = 'debug' | 'info' | 'warn' | 'error'

export type Entry = { time: number; level: Level; scope: string; text: string }

export type Sink = Pick<Console, Level>

export type Logger = Record<Level, (...args: unknown[]) => void> & {
  /** Buffered entries, oldest first. */
  entries(): Entry[]
}

export declare namespace create {
  type Options = {
    scope: string
    /** Upper bound on the summed JSON size (UTF-8 bytes) of buffered entries; spec §9. */
    maxBytes?: number
    sink?: Sink
    now?: () => number
  }
}

export function create(options: create.Options): Logger {
  const { scope, maxBytes = Constants.loggerBufferBytes, sink = console, now = Date.now } = options
  const prefix = `[doorway:${scope}]`
  const encoder = new TextEncoder()
  const buffer: { entry: Entry; bytes: number }[] = []
  let total = 0

  const log = (level: Level) => (...args: unknown[]) => {
    sink[level](prefix, ...args)
    const entry: Entry = { time: now(), level, scope, text: args.map(stringify).join(' ') }
    const bytes = encoder.encode(JSON.stringify(entry)).length
    // an entry that alone exceeds the budget would empty the buffer, so it is only forwarded
    if (bytes > maxBytes) return
    buffer.push({ entry, bytes })
    total += bytes
    while (total > maxBytes) total -= buffer.shift()!.bytes
  }

  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    entries: () => buffer.map(({ entry }) => entry),
  }
}

// Entries hold text, not the logged objects: references would pin memory the budget doesn't count.
function stringify(value: unknown): string {
  if (typeof value === 'string') return value
  if (value instanceof Error) return `${value.name}: ${value.message}`
  try {
    return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value)
  } catch {
    // circular structures
    return String(value)
  }
}

/**
 * Console only, no buffer: for the host SDK, which must stay under 7 KB. The spec's buffered log
 * (§9) is the modal's, kept by `create` in the frame.
 */
export function console_(scope: string, sink: Sink = console): Pick<Logger, Quiet> {
  const prefix = `[doorway:${scope}]`
  const levels = ['debug', 'warn', 'error'] as const
  return Object.fromEntries(levels.map((level) => [level, (...args: unknown[]) => sink[level](prefix, ...args)])) as Pick<Logger, Quiet>
}

/** The SDK's levels: it has nothing to say at `info` (every byte counts). */
type Quiet = Exclude<Level, 'info'>
