import { describe, expect, test } from 'vitest'
import * as Texts from './Texts.js'

describe('format', () => {
  test.each([
    [Texts.errors.registerNameFailed, { name: 'alice' }, 'Error registering name alice'],
    [Texts.errors.emailLoginThrottled, { n: 27 }, 'Please try again after 27 seconds'],
    [Texts.errors.adapterForNamespaceNotFound, { ns: 'solana' }, "Adapter for namespace solana doesn't exist"],
    [Texts.errors.networkWithIdNotFound, { id: 'eip155:1' }, 'Network with ID eip155:1 not found'],
    [Texts.alerts.invalidAppConfiguration.message, { origin: 'https://a.example' }, 'Origin https://a.example not found on Allowlist - update configuration'],
    ['{a}-{b}-{a}', { a: 1, b: 0 }, '1-0-1'],
    [Texts.core.somethingWentWrong, {}, 'Something went wrong'],
  ])('behavior: fills %s', (template, values, expected) => {
    expect(Texts.format(template, values as never)).toBe(expected)
  })

  test('behavior: ignores extra values and does not re-expand inserted braces', () => {
    expect(Texts.format('Error registering name {name}', { name: '{name}', other: 'x' } as { name: string })).toBe(
      'Error registering name {name}',
    )
  })

  test('error: throws on a missing value instead of leaving the placeholder', () => {
    // @ts-expect-error: `n` is required by the template
    expect(() => Texts.format(Texts.errors.emailLoginThrottled, {})).toThrowError(
      'Missing value for placeholder {n}',
    )
  })

  test('error: inherited properties are not values', () => {
    expect(() => Texts.format('{toString}', {} as never)).toThrowError('Missing value for placeholder {toString}')
  })
})

describe('errors', () => {
  test.each([
    ['invalidAccountId', 'Invalid CAIP-10 address'],
    ['invalidChainId', 'Invalid CAIP-2 network id'],
    ['siweConfigAndSiwx', 'Cannot set both `siweConfig` and `siwx` options'],
    ['authenticationInitFailed', 'A problem occurred while trying initialize authentication'],
    ['userRejected', 'User rejected the request.'],
    ['unrecognizedChain', 'Unrecognized chain ID.'],
  ] as const)('behavior: %s is the spec text verbatim', (key, text) => {
    expect({ ...Texts.core, ...Texts.errors }[key]).toBe(text)
  })

  test('behavior: no key is in both the core and the errors sections', () => {
    expect(Object.keys(Texts.core).filter((key) => Object.hasOwn(Texts.errors, key))).toEqual([])
  })

  test('behavior: keys are camelCase', () => {
    for (const key of Object.keys({ ...Texts.core, ...Texts.errors })) expect(key).toMatch(/^[a-z][a-zA-Z0-9]*$/)
  })
})

describe('alerts', () => {
  test('behavior: every alert has a title and a message', () => {
    for (const alert of Object.values(Texts.alerts))
      expect(Object.keys(alert).sort()).toEqual(['message', 'title'])
  })

  test('behavior: project id alert', () => {
    expect(Texts.alerts.projectIdNotConfigured).toEqual({
      title: 'Project ID Not Configured',
      message: 'A projectId is required. Pass projectId to createModal() — see the README.',
    })
  })
})
