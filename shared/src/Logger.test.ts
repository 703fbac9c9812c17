import { describe, expect, test, vi } from 'vitest'
import * as Logger from './Logger.js'

function setup(options: Partial<Logger.create.Options> = {}) {
  const sink = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() }
  let time = 0
  const log = Logger.create({ scope: 'test', sink, now: () => ++time, ...options })
  return { log, sink }
}

const size = (entries: Logger.Entry[]) =>
  entries.reduce((sum, entry) => sum + new TextEncoder().encode(JSON.stringify(entry)).length, 0)

describe('create', () => {
  test.each(['debug', 'info', 'warn', 'error'] as const)('behavior: %s forwards to the sink with the scope prefix', (level) => {
    const { log, sink } = setup()
    const data = { a: 1 }
    log[level]('hello', data)
    expect(sink[level]).toHaveBeenCalledExactlyOnceWith('[doorway:test]', 'hello', data)
    expect(log.entries()).toEqual([{ time: 1, level, scope: 'test', text: 'hello {"a":1}' }])
  })

  test.each([
    ['string', 'plain', 'plain'],
    ['number', 42, '42'],
    ['undefined', undefined, 'undefined'],
    ['bigint', 10n, '"10n"'],
    ['error', new TypeError('bad'), 'TypeError: bad'],
    ['array', [1, 'a'], '[1,"a"]'],
  ])('behavior: stores a %s as text', (_, value, text) => {
    const { log } = setup()
    log.info(value)
    expect(log.entries()[0]?.text).toBe(text)
  })

  test('behavior: a circular object is stored without throwing', () => {
    const { log } = setup()
    const circular: Record<string, unknown> = {}
    circular.self = circular
    log.warn(circular)
    expect(log.entries()[0]?.text).toBe('[object Object]')
  })

  test('behavior: drops the oldest entries to stay within maxBytes', () => {
    // e1…e5 serialise to the same size, so three fit exactly
    const one = size([{ time: 1, level: 'info', scope: 'test', text: 'e1' }])
    const { log } = setup({ maxBytes: one * 3 })
    for (let i = 1; i <= 5; i++) log.info(`e${i}`)
    expect(log.entries().map((e) => e.text)).toEqual(['e3', 'e4', 'e5'])
    expect(size(log.entries())).toBeLessThanOrEqual(one * 3)
  })

  test('behavior: counts UTF-8 bytes, not UTF-16 units', () => {
    const ascii = size([{ time: 1, level: 'info', scope: 'test', text: 'aa' }])
    const { log } = setup({ maxBytes: ascii + 1 })
    log.info('éé') // 4 bytes where 'aa' is 2
    expect(log.entries()).toEqual([])
  })

  test('behavior: an entry larger than maxBytes is forwarded but not buffered, keeping older ones', () => {
    const { log, sink } = setup({ maxBytes: 200 })
    log.info('small')
    log.error('x'.repeat(500))
    expect(sink.error).toHaveBeenCalledOnce()
    expect(log.entries().map((e) => e.text)).toEqual(['small'])
  })

  test('behavior: entries() is a copy', () => {
    const { log } = setup()
    log.info('a')
    log.entries().pop()
    expect(log.entries()).toHaveLength(1)
  })

  test('param: maxBytes defaults to 1,024,000 (spec §9)', () => {
    const { log } = setup({ maxBytes: undefined })
    const text = 'x'.repeat(100_000)
    for (let i = 0; i < 11; i++) log.debug(text)
    expect(log.entries()).toHaveLength(10)
    expect(size(log.entries())).toBeLessThanOrEqual(1_024_000)
  })

  test('param: sink defaults to console', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    Logger.create({ scope: 'sdk' }).warn('careful')
    expect(spy).toHaveBeenCalledExactlyOnceWith('[doorway:sdk]', 'careful')
  })
})
