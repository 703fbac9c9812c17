import { describe, expect, test } from 'vitest'
import * as TestPostgres from './TestPostgres.js'

describe('findBin', () => {
  test('error: names the exact install command when the server binaries are missing', () => {
    expect(TestPostgres.installCommand).toBe('apt-get install -y postgresql')
    expect(() => TestPostgres.findBin('/nonexistent/postgresql')).toThrow(TestPostgres.installCommand)
  })
})

describe('server', () => {
  test('behavior: DOORWAY_TEST_POSTGRES_URL is used as it is, and stopping leaves it running', async () => {
    const server = await TestPostgres.server({ DOORWAY_TEST_POSTGRES_URL: 'postgres://ci@db.example/postgres' })
    expect(server.url).toBe('postgres://ci@db.example/postgres')
    await expect(server.stop()).resolves.toBeUndefined()
  })
})
