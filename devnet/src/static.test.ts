import { describe, expect, test } from 'vitest'
import { resolveFile } from './static.js'

describe('resolveFile', () => {
  const mount = { prefix: '/', dir: '/srv/site' }
  test.each([
    ['/', '/srv/site/index.html'],
    ['/assets/app.js', '/srv/site/assets/app.js'],
    ['//assets/app.js', '/srv/site/assets/app.js'],
  ])('behavior: %s → %s', (path, file) => {
    expect(resolveFile(mount, path)).toBe(file)
  })
  test.each(['/../etc/passwd', '/assets/../../etc/passwd', '/..'])('error: %s climbs out and is refused', (path) => {
    expect(resolveFile(mount, path)).toBeUndefined()
  })
})
