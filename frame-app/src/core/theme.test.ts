import { describe, expect, test } from 'vitest'
import { defaultAccent, onAccent } from './theme.js'

describe('onAccent', () => {
  test.each([
    ['the dark default accent', defaultAccent.dark, '#000'],
    ['the light default accent', defaultAccent.light, '#fff'],
    ['white', '#ffffff', '#000'],
    ['black', '#000000', '#fff'],
    ['a dark red', '#8b0000', '#fff'],
    ['a yellow', '#ffd400', '#000'],
  ])('behavior: text on %s is %s', (_, accent, text) => {
    expect(onAccent(accent)).toBe(text)
  })
})
